-- sqlite-only: issue 41 gave SQLite's package searches counts of their trigrams (migration
-- 0032 there). PostgreSQL's planner keeps its own statistics of the trigram indexes (migration
-- 0014); nothing changes here.
select 1;
