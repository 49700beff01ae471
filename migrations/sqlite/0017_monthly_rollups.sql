-- Monthly roll-ups of the download statistics (issue 24): a report over a long range reads
-- the whole months inside it here and only the days at its ends from the daily rows, so a
-- year reads 12 rows per file instead of 365. Kept by the same writer, in the same
-- transaction as the daily rows. The monthly totals (customers' sketches included) live in
-- download_totals under the scopes all:month, provider:month and package:month, with the
-- month (YYYY-MM) as their day.
create table download_monthly (
    month text not null,
    package_id integer not null,
    upload_id integer not null,
    provider_id integer not null,
    downloads integer not null,
    zip_downloads integer not null,
    resumptions integer not null,
    bytes_sent integer not null,
    primary key (month, package_id, upload_id)
);
-- Covering: the reports sum downloads per file over a run of months, and over the days around
-- them, without reading the tables.
create index download_monthly_month_idx on download_monthly (month, provider_id, package_id, upload_id, downloads);
create index download_daily_day_idx on download_daily (day, provider_id, package_id, upload_id, downloads);

insert into download_monthly (month, package_id, upload_id, provider_id, downloads, zip_downloads, resumptions, bytes_sent)
select substr(day, 1, 7), package_id, upload_id, max(provider_id), sum(downloads), sum(zip_downloads), sum(resumptions), sum(bytes_sent)
from download_daily group by substr(day, 1, 7), package_id, upload_id;
