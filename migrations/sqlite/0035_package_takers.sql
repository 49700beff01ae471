-- Who took each package (issue 37): the customer numbers that downloaded any of its files
-- (from the portal, a ZIP or a share), per file, the first and the last time. The notice
-- before the package's end goes to their contacts, and the download events that say the same
-- are deleted after AP_STATS_PERSONAL_DAYS, which can be shorter than a package's validity. Written by the
-- statistics writer with the events; kept until the package's end plus AP_TAKERS_DAYS (the
-- daily sweep); a customer group's erasure removes its rows. No foreign key: the writer's
-- batch must not fail for a package deleted meanwhile (the sweep removes such rows).
create table package_takers (
    download_id integer not null,
    customer_number integer not null,
    upload_id integer not null,
    first_at text not null,
    -- The last time: the mail's figures ask who took anything after a mail.
    last_at text not null,
    created_at text not null,
    updated_at text not null,
    primary key (download_id, customer_number, upload_id)
) without rowid;
create index package_takers_customer_idx on package_takers (customer_number);

-- The takers of the last AP_STATS_PERSONAL_DAYS, from the events still kept.
insert into package_takers
    (download_id, customer_number, upload_id, first_at, last_at, created_at, updated_at)
select e.package_id, e.customer_number, e.upload_id, min(e.at), max(e.at), min(e.at), max(e.at)
from download_events e
where e.customer_number is not null
  and exists (select 1 from downloads d where d.id = e.package_id)
group by e.package_id, e.customer_number, e.upload_id;

-- The notices before the end not queued yet: every instance looks for the due ones.
create index package_announcements_reminder_idx on package_announcements (download_id)
    where reminder_days > 0 and reminded_at is null;
