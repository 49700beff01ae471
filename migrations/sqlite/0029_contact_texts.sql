-- Issue 41: the contact search answers from the contacts' texts in memory
-- (`db::contacts::texts`), read once per version of those texts. This counter moves with every
-- change to what the search looks at (a contact's email, names or customer number; a company's
-- name or customer number), in the transaction of the change, and with nothing else: a double
-- opt-in, a list or a package changed keeps the texts in memory as they are. A search's
-- statement compares it with the version of the texts it used, so an answer is never made from
-- texts older than the data.
alter table data_version add column contact_text_version integer not null default 0;
create trigger contact_texts_insert after insert on contacts begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
create trigger contact_texts_update after update of email, firstname, lastname, customer_number
on contacts begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
create trigger contact_texts_delete after delete on contacts begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
create trigger company_texts_insert after insert on companies begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
create trigger company_texts_update after update of customer_number, company_name
on companies begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
create trigger company_texts_delete after delete on companies begin
    update data_version set contact_text_version = contact_text_version + 1;
end;
