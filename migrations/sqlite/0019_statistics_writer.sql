-- The writer adds each batch to the daily rows instead of recounting the day's events
-- (issue 24). To count a file's distinct customers of the day it asks which customers of the
-- batch have an event of that day and file already: one probe of this index per customer.
-- It also serves everything the index it replaces served (day first).
drop index download_events_key_idx;
create index download_events_customer_idx
    on download_events (day, package_id, upload_id, customer_number);

-- The statistics version: the writer counts it up in the transaction of every batch, so a
-- report kept under the version it was made at is never served after new downloads, on any
-- instance sharing this database (services::statistics::reports). The data version does not
-- count downloads: they change no list.
create table statistics_version (
    id integer primary key check (id = 1),
    version integer not null
);
insert into statistics_version (id, version) values (1, 0);
