-- A package's mails (issue 37): whether it is announced at its start to the confirmed,
-- unblocked contacts of its lists, with which subject and text (placeholders filled when
-- sent), and how many days before its end its takers are told (0: not). A package without a
-- row (every package made before this) announces nothing. `announced_at` and `reminded_at`
-- say when the mails were queued, so each is queued once.
create table package_announcements (
    download_id integer primary key references downloads (id) on delete cascade,
    announce boolean not null,
    subject text not null,
    body text not null,
    reminder_days integer not null check (reminder_days between 0 and 60),
    announced_at text,
    reminded_at text,
    created_at text not null,
    updated_at text not null
);
