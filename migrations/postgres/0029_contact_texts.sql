-- Issue 41: the contact search answers from the contacts' texts in memory
-- (`db::contacts::texts`), read once per version of those texts. This counter moves with every
-- change to what the search looks at (a contact's email, names or customer number; a company's
-- name or customer number), in the transaction of the change, and with nothing else: a double
-- opt-in, a list or a package changed keeps the texts in memory as they are. A search's
-- statement compares it with the version of the texts it used, so an answer is never made from
-- texts older than the data. Counted once per transaction, as `data_version` (migration 0014).
alter table data_version add column contact_text_version bigint not null default 0;

create function count_contact_text_version() returns trigger language plpgsql as $$
begin
    if current_setting('aktionsportal.texts_counted_in', true) is distinct from txid_current()::text then
        update data_version set contact_text_version = contact_text_version + 1;
        perform set_config('aktionsportal.texts_counted_in', txid_current()::text, true);
    end if;
    return null;
end
$$;

create trigger contacts_texts after insert or delete or truncate on contacts
    for each statement execute function count_contact_text_version();
create trigger contacts_texts_update after update of email, firstname, lastname, customer_number
    on contacts for each statement execute function count_contact_text_version();
create trigger companies_texts after insert or delete or truncate on companies
    for each statement execute function count_contact_text_version();
create trigger companies_texts_update after update of customer_number, company_name
    on companies for each statement execute function count_contact_text_version();
