-- Contacts (issue 11): double opt-in links, the confirmation record, mail jobs and changes to
-- the marketing service that still have to be made there.

-- Where and when a contact confirmed, and when the last confirmation mail went out.
-- (`contacts.double_opt_in_token` of 0001 stays unused: links live in their own table, so
-- that every mail's link works until it expires.)
alter table contacts add column double_opt_in_address text;
alter table contacts add column double_opt_in_sent_at text;

-- One row per confirmation link: the SHA-256 of the random token (the token itself is only
-- in the mail), so a copy of the database confirms nobody.
create table double_opt_in_tokens (
    token_hash text primary key,
    contact_id bigint not null references contacts (id) on delete cascade,
    expires_at text not null,
    created_at text not null,
    updated_at text not null
);
create index double_opt_in_tokens_contact_id_idx on double_opt_in_tokens (contact_id);
create index double_opt_in_tokens_expires_at_idx on double_opt_in_tokens (expires_at);

-- A mail to many contacts, done item by item. A worker holds the job's lease while it sends;
-- after a crash another worker (or the restarted one) takes it over when the lease ends.
create table mail_jobs (
    id integer primary key autoincrement,
    kind text not null,
    status text not null check (status in ('running', 'done')),
    total bigint not null,
    started_by text not null,
    lease_owner text,
    lease_until text,
    created_at text not null,
    updated_at text not null,
    finished_at text
);
create index mail_jobs_status_idx on mail_jobs (status, id);
-- At most one running job of a kind.
create unique index mail_jobs_one_running_idx on mail_jobs (kind) where status = 'running';

-- The recipients of a job. State: pending → sending (claimed, being sent) → sent | failed |
-- skipped (no longer pending when its turn came). No foreign key to contacts: a contact
-- deleted during the job is skipped, and the job's record stays whole.
create table mail_job_items (
    job_id bigint not null references mail_jobs (id) on delete cascade,
    contact_id bigint not null,
    state text not null check (state in ('pending', 'sending', 'sent', 'failed', 'skipped')),
    attempts integer not null default 0,
    message_id text,
    error text,
    created_at text not null,
    updated_at text not null,
    primary key (job_id, contact_id)
);
create index mail_job_items_job_state_idx on mail_job_items (job_id, state, contact_id);

-- Changes the marketing service has not taken yet: a contact change whose database write
-- failed after Brevo had it, and whose undo failed as well. Retried in the background and
-- shown to admins until done.
create table marketing_retries (
    id integer primary key autoincrement,
    email text not null,
    operation text not null check (operation in ('upsert', 'update', 'delete')),
    body text not null,
    attempts integer not null default 0,
    last_error text,
    created_at text not null,
    updated_at text not null
);
create index marketing_retries_email_idx on marketing_retries (email);
