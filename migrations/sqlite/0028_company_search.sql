-- sqlite-only: issue 41, the contact search by company name.
-- Every contact's row of `contact_search` (migration 0014) held its company's name, so a
-- company's name was indexed once per contact and the trigrams of the common words of company
-- names ("ber", "ung", "sch") were in most rows: a search for "Weber-Schmidt Energieberatung"
-- read 27 long lists of rows (16 ms). The company names now have their own trigram table, one
-- row per company (its customer number as the rowid), and the contact rows hold the contact's
-- own fields. A search looks in both and joins the contacts of the companies found.
-- The `_vocab` tables tell in how many rows each trigram is (`db::trigrams`): a search looks up
-- its rarest trigrams first and checks the whole term in the rows found.
drop trigger contact_search_insert;
drop trigger contact_search_update;
drop trigger contact_search_delete;
drop trigger contact_search_company;
drop table contact_search;
create virtual table contact_search using fts5(text, tokenize = 'trigram', detail = 'none');
insert into contact_search (rowid, text)
select id, email || char(10) || firstname || char(10) || lastname || char(10) || customer_number
from contacts;
create trigger contact_search_insert after insert on contacts begin
    insert into contact_search (rowid, text)
    values (new.id, new.email || char(10) || new.firstname || char(10) || new.lastname
        || char(10) || new.customer_number);
end;
create trigger contact_search_update after update of email, firstname, lastname, customer_number
on contacts begin
    delete from contact_search where rowid = old.id;
    insert into contact_search (rowid, text)
    values (new.id, new.email || char(10) || new.firstname || char(10) || new.lastname
        || char(10) || new.customer_number);
end;
create trigger contact_search_delete after delete on contacts begin
    delete from contact_search where rowid = old.id;
end;
create virtual table contact_search_vocab using fts5vocab(contact_search, 'row');

create virtual table company_search using fts5(text, tokenize = 'trigram', detail = 'none');
insert into company_search (rowid, text) select customer_number, company_name from companies;
create trigger company_search_insert after insert on companies begin
    insert into company_search (rowid, text) values (new.customer_number, new.company_name);
end;
create trigger company_search_update after update of customer_number, company_name
on companies begin
    delete from company_search where rowid = old.customer_number;
    insert into company_search (rowid, text) values (new.customer_number, new.company_name);
end;
create trigger company_search_delete after delete on companies begin
    delete from company_search where rowid = old.customer_number;
end;
create virtual table company_search_vocab using fts5vocab(company_search, 'row');
