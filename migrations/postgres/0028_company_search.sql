-- sqlite-only: issue 41 gave SQLite's contact search a trigram table of company names
-- (migration 0028 there). PostgreSQL's pg_trgm index on the company names (migration 0010)
-- does this already; nothing changes here.
select 1;
