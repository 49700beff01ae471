-- Download files (issue 8). Checksums measured while a file is uploaded: the SHA-256 is the
-- ETag, the CRC-32 lets the server announce the exact length of a package ZIP before the
-- first byte. Rows from before this migration get them from the start-up sweep.
alter table uploads add column sha256 text;
alter table uploads add column crc32 bigint;

-- A package's own name for a file: a copied package shares the stored bytes with its
-- original, but a rename or a tag in one must not change the other.
alter table download_uploads add column name text not null default '';
update download_uploads set name = (select u.name from uploads u where u.id = download_uploads.upload_id);
create index download_uploads_download_id_position_idx on download_uploads (download_id, position);

create table download_upload_tags (
    download_id bigint not null,
    upload_id bigint not null,
    tag_id bigint not null references tags (id) on delete cascade,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (download_id, upload_id, tag_id),
    foreign key (download_id, upload_id) references download_uploads (download_id, upload_id) on delete cascade
);
create index download_upload_tags_tag_id_idx on download_upload_tags (tag_id);
insert into download_upload_tags (download_id, upload_id, tag_id, created_at, updated_at)
    select du.download_id, ut.upload_id, ut.tag_id, ut.created_at, ut.updated_at
    from upload_tags ut join download_uploads du on du.upload_id = ut.upload_id;
drop table upload_tags;

-- Uploads not yet in a package are found by age for the sweep.
create index uploads_created_at_idx on uploads (created_at);
