-- What a package's mails brought (issue 37). Downloads that follow a mail's link in the same
-- visit are recorded with the channel 'mail'; the roll-ups count them per file and day or
-- month, so the figure outlives the personal events.
alter table download_daily add column mail_downloads integer not null default 0;
alter table download_monthly add column mail_downloads integer not null default 0;

-- The package whose mail carried an unsubscribe link (null: before this), so that the
-- unsubscribes are counted per package. Only the used ones are counted.
alter table unsubscribe_tokens add column download_id integer;
create index unsubscribe_tokens_used_idx on unsubscribe_tokens (download_id)
    where used_at is not null;
