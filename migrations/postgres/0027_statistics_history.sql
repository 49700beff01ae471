-- Issue 41: the statistics summary ranks the files and packages of a new range from the
-- roll-ups of past days held in memory (services::insight::statistics::ranking). Those days
-- change only when a batch, a seed, a backfill or an import writes days before yesterday; the
-- history version moves then (with the statistics version), so a ranking made at one history
-- version is never used after such a change, on any instance sharing this database.
alter table statistics_version add column history bigint not null default 0;
