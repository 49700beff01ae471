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

-- 4. The totals of the contacts page (all contacts; those still to confirm, and of them those
--    not blocked), kept by triggers: counting 200,000 contacts cost about 9 ms (an index-only
--    scan) at every change. Statement-level triggers with transition tables: a statement that
--    writes thousands of contacts updates the row once.
create table contact_totals (
    id integer primary key check (id = 1),
    contacts bigint not null,
    unconfirmed bigint not null,
    unconfirmed_reachable bigint not null
);
insert into contact_totals (id, contacts, unconfirmed, unconfirmed_reachable)
select 1, count(*),
       count(*) filter (where not double_opt_in),
       count(*) filter (where not double_opt_in and not email_blacklisted)
from contacts;

create function contact_totals_add() returns trigger language plpgsql as $$
begin
    update contact_totals set
        contacts = contacts + (select count(*) from new_rows),
        unconfirmed = unconfirmed + (select count(*) from new_rows where not double_opt_in),
        unconfirmed_reachable = unconfirmed_reachable
            + (select count(*) from new_rows where not double_opt_in and not email_blacklisted);
    return null;
end
$$;
create function contact_totals_remove() returns trigger language plpgsql as $$
begin
    update contact_totals set
        contacts = contacts - (select count(*) from old_rows),
        unconfirmed = unconfirmed - (select count(*) from old_rows where not double_opt_in),
        unconfirmed_reachable = unconfirmed_reachable
            - (select count(*) from old_rows where not double_opt_in and not email_blacklisted);
    return null;
end
$$;
create function contact_totals_change() returns trigger language plpgsql as $$
begin
    update contact_totals set
        unconfirmed = unconfirmed
            + (select count(*) from new_rows where not double_opt_in)
            - (select count(*) from old_rows where not double_opt_in),
        unconfirmed_reachable = unconfirmed_reachable
            + (select count(*) from new_rows where not double_opt_in and not email_blacklisted)
            - (select count(*) from old_rows where not double_opt_in and not email_blacklisted);
    return null;
end
$$;
create function contact_totals_clear() returns trigger language plpgsql as $$
begin
    update contact_totals set contacts = 0, unconfirmed = 0, unconfirmed_reachable = 0;
    return null;
end
$$;
create trigger contact_totals_insert after insert on contacts
    referencing new table as new_rows for each statement execute function contact_totals_add();
create trigger contact_totals_delete after delete on contacts
    referencing old table as old_rows for each statement execute function contact_totals_remove();
create trigger contact_totals_update after update on contacts
    referencing old table as old_rows new table as new_rows
    for each statement execute function contact_totals_change();
create trigger contact_totals_truncate after truncate on contacts
    for each statement execute function contact_totals_clear();
