-- Erasure of a contact (issue 25, DSGVO Art. 17). The audit log stays append-only except for
-- one kind of change: an erasure replaces the personal values of an entry's `changes` with
-- "gelöscht" and stamps `erased_at`. Who, what, when and which record stay as they were.
alter table audit_log add column erased_at text;

drop trigger audit_log_no_update;
create trigger audit_log_no_update before update on audit_log
when not (
    new.erased_at is not null
    and new.id = old.id and new.at = old.at and new.actor = old.actor
    and new.action = old.action and new.entity = old.entity
    and new.entity_id is old.entity_id
)
begin select raise(abort, 'audit_log is append-only'); end;
