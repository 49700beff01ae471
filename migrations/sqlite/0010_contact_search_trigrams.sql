-- postgres-only: PostgreSQL gets trigram indexes for the contact search (pg_trgm). SQLite has
-- no index for `like '%…%'`; its search reads the contacts table, as before.
select 1;
