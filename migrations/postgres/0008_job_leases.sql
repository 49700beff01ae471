-- Background jobs that every instance runs on a timer (the marketing retries, the file-store
-- sweep): the instance that holds a job's lease runs that round, the others skip it, so two
-- instances on one database never run the same round twice. A lease that ran out (its holder
-- crashed) is taken by the next instance that asks.
create table job_leases (
    name text primary key,
    owner text not null,
    lease_until timestamptz not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
);
