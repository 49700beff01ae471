-- A package's mails (issue 37) go through the durable mail queue of the double opt-in
-- (`mail_jobs`, `mail_job_items`): one job per package and kind ('announcement' at its
-- start, 'end_notice' before its end), whose items are the addresses it reaches, each once
-- (an address belongs to one contact). The unique index makes "once per package" hold
-- across instances and restarts; deleting the package removes its jobs.
alter table mail_jobs add column download_id integer references downloads (id) on delete cascade;
drop index mail_jobs_one_running_idx;
-- At most one running double opt-in job (the package jobs run side by side).
create unique index mail_jobs_one_running_idx on mail_jobs (kind)
    where status = 'running' and download_id is null;
create unique index mail_jobs_package_kind_idx on mail_jobs (download_id, kind)
    where download_id is not null;

-- An item whose mail failed for a passing reason (Brevo's 429 or 5xx, an SMTP 4xx, no
-- answer) waits until then before it is claimed again (null: at once).
alter table mail_job_items add column next_attempt_at text;

-- The one-click unsubscribe links of the mails (RFC 8058): a random token per mail, only its
-- SHA-256 kept; it blocks the address of its contact. Deleting the contact removes them.
create table unsubscribe_tokens (
    token_hash text primary key,
    contact_id integer not null references contacts (id) on delete cascade,
    created_at text not null,
    updated_at text not null,
    used_at text
);
create index unsubscribe_tokens_contact_idx on unsubscribe_tokens (contact_id);
create index unsubscribe_tokens_created_at_idx on unsubscribe_tokens (created_at);
