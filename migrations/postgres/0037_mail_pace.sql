-- One pace for every mail job (issue 37): the double opt-in mail and each package's
-- announcement and end notice share the mail server's or Brevo's limit, so the send slots are
-- reserved in one row for all jobs, not per job (mail_jobs.next_send_at, no longer read). The
-- workers take the running jobs in turn, one mail each, so a large announcement does not hold
-- back a job started after it. The next free slot is `next_send_at` (null: none reserved yet).
create table mail_pace (
    id integer primary key check (id = 1),
    next_send_at timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null
);
insert into mail_pace (id, next_send_at, created_at, updated_at)
values (1, null, '2026-11-28T00:00:00+00:00', '2026-11-28T00:00:00+00:00');
