-- Issue 41: the package lists fast for a question nobody asked before.
--
-- A deep page of the admin list sorted by a date or the name read the table row of every
-- package it skipped, to see whether it is archived. With the archive flag first and the id
-- last, an index-only scan answers which ids lie on the page, in the list's order.
create index downloads_archived_start_at_idx on downloads (archived, start_at, id);
create index downloads_archived_end_at_idx on downloads (archived, end_at, id);
create index downloads_archived_updated_at_idx on downloads (archived, updated_at, id);
create index downloads_archived_name_idx on downloads (archived, lower(name), id);
