-- The Protokoll filtered by area alone (issue 24): its newest entries come straight from this
-- index, without sorting the area's entries (a quarter of the log are contacts' changes).
create index audit_log_area_idx on audit_log (entity, at, id);
