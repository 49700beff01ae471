-- Previews of stored files (issue 21), one row per content (SHA-256): uploads with the same
-- bytes share their previews. `rendering` is claimed by one instance until `claimed_until`;
-- `ready` names the two stored JPEGs; `failed` says why there is none (never retried by
-- itself). Rows of contents no upload has any more are removed with their objects.
create table previews (
    sha256 text primary key,
    state text not null check (state in ('rendering', 'ready', 'failed')),
    claimed_until text,
    thumb_key text,
    thumb_width integer,
    thumb_height integer,
    large_key text,
    large_width integer,
    large_height integer,
    error text,
    created_at text not null,
    updated_at text not null
);
create index previews_thumb_key_idx on previews (thumb_key);
create index previews_large_key_idx on previews (large_key);
create index uploads_sha256_idx on uploads (sha256);
