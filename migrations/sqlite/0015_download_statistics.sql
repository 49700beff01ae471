-- Download statistics (issue 24). Every file delivery, package ZIP and selection ZIP records
-- one event per file it holds. Events name the user and the customer number, so they are
-- deleted after AP_STATS_PERSONAL_DAYS; the roll-ups below are anonymous and stay. None of
-- these tables counts towards data_version: downloads change no list the portal caches.
create table download_events (
    id integer primary key,
    at text not null,
    -- The German day of `at` (YYYY-MM-DD), as the roll-ups and reports count days.
    day text not null,
    -- Who: the user's subject (`local:N`, `oidc:…`) and customer number.
    subject text,
    customer_number integer,
    package_id integer not null,
    upload_id integer not null,
    provider_id integer not null,
    -- file, package_zip, selection_zip
    channel text not null,
    -- download (from byte 0) or resumption (a Range later in the body)
    kind text not null,
    bytes_sent integer not null,
    -- complete or aborted
    outcome text not null
);
create index download_events_key_idx on download_events (day, package_id, upload_id);
create index download_events_package_idx on download_events (package_id, day);

-- Per German day × package × upload; recomputed from that day's events by the writer.
create table download_daily (
    day text not null,
    package_id integer not null,
    upload_id integer not null,
    provider_id integer not null,
    downloads integer not null,
    zip_downloads integer not null,
    resumptions integer not null,
    customers integer not null,
    bytes_sent integer not null,
    primary key (day, package_id, upload_id)
);
create index download_daily_package_idx on download_daily (package_id, day);

-- Per German day for the whole portal (scope 'all', id 0), a provider or a package: the
-- counts, and the day's distinct customers as an anonymous sketch (see
-- domain::statistics::Sketch), so that ranges count each customer once.
create table download_totals (
    scope text not null,
    scope_id integer not null,
    day text not null,
    downloads integer not null,
    zip_downloads integer not null,
    resumptions integer not null,
    bytes_sent integer not null,
    sketch blob not null,
    primary key (scope, scope_id, day)
);
create index download_totals_day_idx on download_totals (scope, day);
