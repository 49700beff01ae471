-- Issue 34: the audit log can only grow, be swept, and have a person's values erased, and an
-- erasure's rewrite of an entry is recorded in the entry.
--
-- - `erased_by`: the id of the erasure's own entry (action 'erase') that rewrote this entry
--   last; `erased_at` equals that entry's `at`. `erasures` lists every rewrite as JSON:
--   [{"erasure": <entry id>, "at": <time>, "fields": [<field names whose values went>]}].
--   An update must name an existing erasure entry of the same instant, and may change nothing
--   but `changes` and these columns.
-- - Deleting an entry is refused unless it is older than the `before` of a recorded retention
--   sweep (`audit_sweeps`, written by db::audit::delete_before in the sweep's transaction).
--   The sweeps themselves are never changed or deleted.
alter table audit_log add column erased_by integer;
alter table audit_log add column erasures text;

create table audit_sweeps (
    id integer primary key,
    -- When the sweep ran.
    at text not null,
    -- Entries older than this went.
    before text not null
);

drop trigger audit_log_no_update;
create trigger audit_log_no_update before update on audit_log
when not coalesce((
    new.erased_at is not null and new.erased_by is not null and new.erasures is not null
    and new.id = old.id and new.at = old.at and new.actor = old.actor
    and new.action = old.action and new.entity = old.entity
    and new.entity_id is old.entity_id
    and exists (
        select 1 from audit_log e
        where e.id = new.erased_by and e.action = 'erase' and e.at = new.erased_at
    )
), 0)
begin select raise(abort, 'audit_log is append-only'); end;

create trigger audit_log_no_delete before delete on audit_log
when not coalesce(old.at < (select max(before) from audit_sweeps), 0)
begin select raise(abort, 'audit_log entries are deleted only by the retention sweep'); end;

create trigger audit_sweeps_no_update before update on audit_sweeps
begin select raise(abort, 'audit_sweeps is append-only'); end;
create trigger audit_sweeps_no_delete before delete on audit_sweeps
begin select raise(abort, 'audit_sweeps is append-only'); end;
