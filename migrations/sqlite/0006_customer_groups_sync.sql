-- Contact editor and Brevo sync (issue 12).

-- Import candidates of the planning system that came as a CSV file (companies whose planning
-- system has no service). The contact editor offers them for their customer number; a new
-- file replaces the candidates of the customer numbers it names.
create table planning_candidates (
    id integer primary key autoincrement,
    customer_number bigint not null,
    company_name text not null,
    salutation smallint not null default 0 check (salutation between 0 and 4),
    firstname text not null,
    lastname text not null,
    email text not null,
    created_at text not null,
    updated_at text not null,
    unique (customer_number, email)
);

-- The contact sync from Brevo: one row per run. A run pages through Brevo's contacts changed
-- since `modified_since` (the start of the last completed run); `next_offset` is where it
-- goes on after a crash or an error. Whoever holds the lease runs it; a lease that ran out is
-- taken over, so a crashed run resumes with the next start (also on another instance).
create table brevo_syncs (
    id integer primary key autoincrement,
    status text not null check (status in ('running', 'done')),
    modified_since text,
    next_offset bigint not null default 0,
    created bigint not null default 0,
    updated bigint not null default 0,
    unchanged bigint not null default 0,
    skipped bigint not null default 0,
    lease_owner text,
    lease_until text,
    started_at text not null,
    finished_at text,
    created_at text not null,
    updated_at text not null
);
-- At most one run at a time, across all instances on this database.
create unique index brevo_syncs_one_running_idx on brevo_syncs (status) where status = 'running';
create index brevo_syncs_finished_at_idx on brevo_syncs (finished_at);
