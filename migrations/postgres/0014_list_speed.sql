-- Issue 22: fast lists on the large data set.
--
-- 1. The data version. Every change to what the package and contact lists show counts it up,
--    in the same transaction as the change, so a list answer kept under the version it was made
--    at is never served after a change, on any instance sharing this database. Triggers do the
--    counting, so no write path (services, imports, seeds, the Brevo sync) can forget it. The
--    row is updated once per transaction (the transaction remembers it did), so a sync that
--    writes thousands of contacts in one transaction costs one update, and the row's lock is
--    taken once, at the first change, and held to the commit: versions follow commit order.
create table data_version (
    id integer primary key check (id = 1),
    version bigint not null
);
insert into data_version (id, version) values (1, 0);

create function count_data_version() returns trigger language plpgsql as $$
begin
    if current_setting('aktionsportal.counted_in', true) is distinct from txid_current()::text then
        update data_version set version = version + 1;
        perform set_config('aktionsportal.counted_in', txid_current()::text, true);
    end if;
    return null;
end
$$;

create trigger providers_counts after insert or update or delete or truncate on providers
    for each statement execute function count_data_version();
create trigger provider_roles_counts after insert or update or delete or truncate on provider_roles
    for each statement execute function count_data_version();
create trigger lists_counts after insert or update or delete or truncate on lists
    for each statement execute function count_data_version();
create trigger tags_counts after insert or update or delete or truncate on tags
    for each statement execute function count_data_version();
create trigger uploads_counts after insert or update or delete or truncate on uploads
    for each statement execute function count_data_version();
create trigger downloads_counts after insert or update or delete or truncate on downloads
    for each statement execute function count_data_version();
create trigger download_uploads_counts after insert or update or delete or truncate on download_uploads
    for each statement execute function count_data_version();
create trigger download_upload_tags_counts after insert or update or delete or truncate on download_upload_tags
    for each statement execute function count_data_version();
create trigger download_lists_counts after insert or update or delete or truncate on download_lists
    for each statement execute function count_data_version();
create trigger companies_counts after insert or update or delete or truncate on companies
    for each statement execute function count_data_version();
create trigger contacts_counts after insert or update or delete or truncate on contacts
    for each statement execute function count_data_version();
create trigger contact_lists_counts after insert or update or delete or truncate on contact_lists
    for each statement execute function count_data_version();
-- A preview counts when it is ready or goes (its rendering claims change nothing shown).
create trigger previews_ready_counts after insert or update of state on previews
    for each row when (new.state = 'ready') execute function count_data_version();
create trigger previews_delete_counts after delete on previews
    for each row when (old.state = 'ready') execute function count_data_version();

-- 2. The package searches by name and by file name (`like '%…%'`): pg_trgm's indexes, as for
--    the contacts (migration 0010). With them the planner also knows how many packages a name
--    pattern matches (it guessed 6 of 20,000 for `%aktion%` and chose a plan 4 times slower).
do $$
begin
  create extension if not exists pg_trgm;
  create index downloads_name_trgm_idx on downloads using gin (lower(name) gin_trgm_ops);
  create index download_uploads_name_trgm_idx
    on download_uploads using gin (lower(name) gin_trgm_ops);
  analyze downloads;
  analyze download_uploads;
exception when insufficient_privilege or undefined_file or feature_not_supported then
  raise notice 'pg_trgm is not available: the package searches work without trigram indexes';
end
$$;

-- 3. The contacts still to confirm (the contacts page's double opt-in counts) from an index
--    instead of all contacts; it also serves the `doubleOptIn` filter.
create index contacts_pending_idx on contacts (double_opt_in, email_blacklisted);
drop index contacts_double_opt_in_idx;
