-- The announcements not queued yet (issue 37): every instance looks for the due ones every
-- 10 seconds. Driven by this index the look reads only those, not every live package (14 ms
-- on seed-large's 11,000 live packages, every time).
create index package_announcements_due_idx on package_announcements (download_id)
    where announce = true and announced_at is null;
