-- The audit log (issue 24): one entry per change a person, the CLI or the portal itself makes,
-- written in the transaction of the change. Entries are never changed; the daily sweep deletes
-- those older than AP_AUDIT_DAYS. Like the statistics, the log does not count towards
-- data_version.
create table audit_log (
    id bigserial primary key,
    at timestamptz not null,
    -- A person's login (e-mail address), "CLI" or "System".
    actor text not null,
    -- What happened, e.g. create, update, delete, archive, block (domain::audit::Action).
    action text not null,
    -- What it happened to, e.g. provider, list, package (domain::audit::Entity).
    entity text not null,
    entity_id bigint,
    -- The changed fields as a JSON object {"field": {"before": …, "after": …}}.
    changes text not null
);
create index audit_log_at_idx on audit_log (at, id);
create index audit_log_entity_idx on audit_log (entity, entity_id, at);
create index audit_log_actor_idx on audit_log (actor, at);

create function audit_log_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_log is append-only'; end; $$;
create trigger audit_log_no_update before update on audit_log for each row execute function audit_log_append_only();
