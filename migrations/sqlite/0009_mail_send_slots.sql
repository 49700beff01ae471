-- The mass mail is sent by every instance's worker together: each claims one item at a time
-- (one UPDATE; SQLite has a single writer), and the pace holds for the job as a whole through
-- send slots reserved in the job row. The next free slot is `next_send_at` (null: none
-- reserved yet). The job lease is gone; its columns are dropped (plain columns without index
-- or constraint, which SQLite 3.35+ drops in place; nothing reads them any more).
alter table mail_jobs add column next_send_at text;
alter table mail_jobs drop column lease_owner;
alter table mail_jobs drop column lease_until;
