-- Download statistics (issue 24). Every file delivery, package ZIP and selection ZIP records
-- one event per file it holds. Events name the user and the customer number, so they are
-- deleted after AP_STATS_PERSONAL_DAYS; the roll-ups below are anonymous and stay. None of
-- these tables counts towards data_version: downloads change no list the portal caches.
create table download_events (
    id bigserial primary key,
    at timestamptz not null,
    -- The German day of `at` (YYYY-MM-DD), as the roll-ups and reports count days.
    day text not null,
    -- Who: the user's subject (`local:N`, `oidc:…`) and customer number.
    subject text,
    customer_number bigint,
    package_id bigint not null,
    upload_id bigint not null,
    provider_id bigint not null,
    -- file, package_zip, selection_zip
    channel text not null,
    -- download (from byte 0) or resumption (a Range later in the body)
    kind text not null,
    bytes_sent bigint not null,
    -- complete or aborted
    outcome text not null
);
create index download_events_key_idx on download_events (day, package_id, upload_id);
create index download_events_package_idx on download_events (package_id, day);

-- Per German day × package × upload; recomputed from that day's events by the writer.
create table download_daily (
    day text not null,
    package_id bigint not null,
    upload_id bigint not null,
    provider_id bigint not null,
    downloads bigint not null,
    zip_downloads bigint not null,
    resumptions bigint not null,
    customers bigint not null,
    bytes_sent bigint not null,
    primary key (day, package_id, upload_id)
);
create index download_daily_package_idx on download_daily (package_id, day);

-- Per German day for the whole portal (scope 'all', id 0), a provider or a package: the
-- counts, and the day's distinct customers as an anonymous sketch (see
-- domain::statistics::Sketch), so that ranges count each customer once.
create table download_totals (
    scope text not null,
    scope_id bigint not null,
    day text not null,
    downloads bigint not null,
    zip_downloads bigint not null,
    resumptions bigint not null,
    bytes_sent bigint not null,
    sketch bytea not null,
    primary key (scope, scope_id, day)
);
create index download_totals_day_idx on download_totals (scope, day);
