-- Pending Brevo changes of folders and lists too (issue 13): a provider's lists that could not
-- be moved back into its folders ('provider_lists'), and a folder of a deleted provider that
-- Brevo did not delete ('delete_folder'). For these `email` holds a short German description
-- of what is waiting (no contact has an address without '@', so they never mix with a
-- contact's retries); `body` holds the ids.
-- SQLite cannot change a check constraint, so the table is built anew (it is small).
drop index marketing_retries_email_idx;
alter table marketing_retries rename to marketing_retries_old;
create table marketing_retries (
    id integer primary key autoincrement,
    email text not null,
    operation text not null check (operation in ('upsert', 'update', 'delete', 'provider_lists', 'delete_folder')),
    body text not null,
    attempts integer not null default 0,
    last_error text,
    created_at text not null,
    updated_at text not null
);
insert into marketing_retries (id, email, operation, body, attempts, last_error, created_at, updated_at)
    select id, email, operation, body, attempts, last_error, created_at, updated_at
    from marketing_retries_old;
drop table marketing_retries_old;
create index marketing_retries_email_idx on marketing_retries (email);
