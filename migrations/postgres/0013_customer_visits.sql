-- When each user last opened the customer page (issue 21, "new since the last visit"): the
-- current visit's last page load, and the last page load of the visit before it. A page load
-- more than 30 minutes after the previous one starts a new visit. Keyed by the user's subject
-- (`local:N`, `oidc:…`), so it holds across sessions and instances.
create table customer_visits (
    subject text primary key,
    previous_visit_at timestamptz,
    last_seen_at timestamptz not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
);
