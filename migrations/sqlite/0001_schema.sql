-- Aktionsportal schema, SQLite flavour. The PostgreSQL file of the same name holds the same
-- tables, columns, keys and indexes. Timestamps are RFC 3339 text written by the application
-- (always UTC, always passed as parameters), so text order is time order. Ids use
-- autoincrement so that, as with PostgreSQL identities, a deleted id is never handed out again.

create table companies (
    customer_number integer primary key,
    company_name text not null,
    created_at text not null,
    updated_at text not null
);

create table contacts (
    id integer primary key autoincrement,
    customer_number integer not null references companies (customer_number) on delete restrict,
    brevo_contact_id integer unique,
    email text not null unique,
    salutation smallint not null default 0 check (salutation between 0 and 4),
    firstname text not null,
    lastname text not null,
    extern_id text,
    double_opt_in boolean not null default false,
    double_opt_in_at text,
    double_opt_in_token text unique,
    email_blacklisted boolean not null default false,
    created_at text not null,
    updated_at text not null
);
create index contacts_customer_number_idx on contacts (customer_number);
create index contacts_created_at_idx on contacts (created_at);
create index contacts_updated_at_idx on contacts (updated_at);
create index contacts_email_blacklisted_idx on contacts (email_blacklisted);
create index contacts_double_opt_in_idx on contacts (double_opt_in);

create table marketing_folders (
    id integer primary key autoincrement,
    name text not null,
    created_at text not null,
    updated_at text not null
);

create table uploads (
    id integer primary key autoincrement,
    name text not null,
    storage_key text not null unique,
    ext text not null,
    size integer not null,
    content_type text not null,
    created_at text not null,
    updated_at text not null
);
create index uploads_updated_at_idx on uploads (updated_at);

create table providers (
    id integer primary key autoincrement,
    name text not null collate nocase unique,
    brevo_active_folder_id integer,
    brevo_inactive_folder_id integer,
    upload_id integer references uploads (id) on delete set null,
    created_at text not null,
    updated_at text not null
);
create index providers_upload_id_idx on providers (upload_id);

create table provider_roles (
    provider_id integer not null references providers (id) on delete cascade,
    role text not null,
    created_at text not null,
    updated_at text not null,
    primary key (provider_id, role)
);
create index provider_roles_role_idx on provider_roles (role);

create table lists (
    id integer primary key autoincrement,
    provider_id integer not null references providers (id) on delete cascade,
    brevo_list_id integer unique,
    name text not null,
    active boolean not null default true,
    total_subscribers integer not null default 0,
    total_blocked integer not null default 0,
    deactivated_at text,
    reactivated_at text,
    created_at text not null,
    updated_at text not null
);
create index lists_provider_id_active_idx on lists (provider_id, active);
create index lists_provider_id_name_idx on lists (provider_id, name);
create index lists_updated_at_idx on lists (updated_at);

create table contact_lists (
    contact_id integer not null references contacts (id) on delete cascade,
    list_id integer not null references lists (id) on delete cascade,
    created_at text not null,
    updated_at text not null,
    primary key (contact_id, list_id)
);
create index contact_lists_list_id_idx on contact_lists (list_id);

create table downloads (
    id integer primary key autoincrement,
    provider_id integer not null references providers (id) on delete cascade,
    name text not null,
    start_at text not null,
    end_at text not null,
    archived boolean not null default false,
    archived_at text,
    created_at text not null,
    updated_at text not null
);
create index downloads_provider_id_idx on downloads (provider_id);
create index downloads_start_at_idx on downloads (start_at);
create index downloads_end_at_idx on downloads (end_at);
create index downloads_updated_at_idx on downloads (updated_at);
create index downloads_archived_id_idx on downloads (archived, id);
create index downloads_name_idx on downloads (name);

create table download_uploads (
    download_id integer not null references downloads (id) on delete cascade,
    upload_id integer not null references uploads (id) on delete cascade,
    position integer not null default 0,
    created_at text not null,
    updated_at text not null,
    primary key (download_id, upload_id)
);
create index download_uploads_upload_id_idx on download_uploads (upload_id);

create table download_lists (
    download_id integer not null references downloads (id) on delete cascade,
    list_id integer not null references lists (id) on delete cascade,
    created_at text not null,
    updated_at text not null,
    primary key (download_id, list_id)
);
create index download_lists_list_id_idx on download_lists (list_id);

create table tags (
    id integer primary key autoincrement,
    name text not null unique,
    icon text not null,
    created_at text not null,
    updated_at text not null
);

create table upload_tags (
    upload_id integer not null references uploads (id) on delete cascade,
    tag_id integer not null references tags (id) on delete cascade,
    created_at text not null,
    updated_at text not null,
    primary key (upload_id, tag_id)
);
create index upload_tags_tag_id_idx on upload_tags (tag_id);

create table users (
    id integer primary key autoincrement,
    login text not null unique,
    password_hash text not null,
    name text not null,
    email text not null,
    customer_number integer,
    created_at text not null,
    updated_at text not null
);

create table user_roles (
    user_id integer not null references users (id) on delete cascade,
    role text not null,
    created_at text not null,
    updated_at text not null,
    primary key (user_id, role)
);

create table sessions (
    id_hash text primary key,
    user_id integer references users (id) on delete cascade,
    subject text not null,
    name text not null,
    email text not null,
    customer_number integer,
    roles text not null,
    created_at text not null,
    last_seen_at text not null,
    expires_at text not null,
    updated_at text not null
);
create index sessions_expires_at_idx on sessions (expires_at);
create index sessions_last_seen_at_idx on sessions (last_seen_at);
create index sessions_user_id_idx on sessions (user_id);
