-- Tag management (issue 25): a tag's name is unique without regard to case. Names that differ
-- only in case so far get their id appended first, so that the index can be made.
update tags set name = name || ' (' || id || ')'
where exists (select 1 from tags t2 where lower(t2.name) = lower(tags.name) and t2.id < tags.id);
create unique index tags_name_lower_idx on tags (lower(name));
