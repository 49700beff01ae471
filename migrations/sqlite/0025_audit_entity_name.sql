-- Issue 35: each entry keeps the name its record had when the entry was written ("Privatkunden"
-- rather than "Kriterium 9"), so that the Protokoll names it even after a rename or deletion.
-- Older entries have none. Inserting stays allowed; the triggers of 0024 still refuse updates
-- (an erasure may clear a person's name here, with the erasure's own marks).
alter table audit_log add column entity_name text;
