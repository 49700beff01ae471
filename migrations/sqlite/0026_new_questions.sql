-- Issue 41: the package lists fast for a question nobody asked before.
--
-- 1. The package searches by name and by file name (`like '%…%'`) read every package, and for
--    the file names every file of every package they probed. FTS5 tables with the trigram
--    tokenizer (as for the contacts, migration 0014) answer a pattern of three or more
--    characters from their index. One row per package: its name, or its file names one per
--    line (a search term with a line break is not looked up here, so a term never matches
--    across two names). Their `like` is the plain query's test: SQLite's `lower()` and `like`
--    both fold ASCII letters only.
create virtual table package_name_search using fts5(text, tokenize = 'trigram', detail = 'none');
insert into package_name_search (rowid, text) select id, name from downloads;
create trigger package_name_search_insert after insert on downloads begin
    insert into package_name_search (rowid, text) values (new.id, new.name);
end;
create trigger package_name_search_update after update of name on downloads begin
    delete from package_name_search where rowid = old.id;
    insert into package_name_search (rowid, text) values (new.id, new.name);
end;
create trigger package_name_search_delete after delete on downloads begin
    delete from package_name_search where rowid = old.id;
    delete from package_file_search where rowid = old.id;
end;

create virtual table package_file_search using fts5(text, tokenize = 'trigram', detail = 'none');
insert into package_file_search (rowid, text)
select download_id, group_concat(name, char(10)) from download_uploads group by download_id;
create trigger package_file_search_insert after insert on download_uploads begin
    delete from package_file_search where rowid = new.download_id;
    insert into package_file_search (rowid, text)
    select download_id, group_concat(name, char(10)) from download_uploads
    where download_id = new.download_id group by download_id;
end;
create trigger package_file_search_update after update of name, download_id on download_uploads
begin
    delete from package_file_search where rowid in (old.download_id, new.download_id);
    insert into package_file_search (rowid, text)
    select download_id, group_concat(name, char(10)) from download_uploads
    where download_id in (old.download_id, new.download_id) group by download_id;
end;
create trigger package_file_search_delete after delete on download_uploads begin
    delete from package_file_search where rowid = old.download_id;
    insert into package_file_search (rowid, text)
    select download_id, group_concat(name, char(10)) from download_uploads
    where download_id = old.download_id group by download_id;
end;

-- 2. A deep page of the admin list sorted by a date or the name read the table row of every
--    package it skipped, to see whether it is archived. With the archive flag first, the index
--    alone answers which ids lie on the page (the row id comes with every index entry).
create index downloads_archived_start_at_idx on downloads (archived, start_at);
create index downloads_archived_end_at_idx on downloads (archived, end_at);
create index downloads_archived_updated_at_idx on downloads (archived, updated_at);
create index downloads_archived_name_idx on downloads (archived, lower(name));
