-- The mass mail is sent by every instance's worker together: each claims one item at a time
-- (`for update skip locked`), and the pace holds for the job as a whole through send slots
-- reserved in the job row. The next free slot is `next_send_at` (null: none reserved yet).
-- The job lease is gone; its columns are dropped (nothing reads them, and an older instance
-- still running during an upgrade fails loudly instead of resetting others' claims).
alter table mail_jobs add column next_send_at timestamptz;
alter table mail_jobs drop column lease_owner;
alter table mail_jobs drop column lease_until;
