-- The contacts list sorted by salutation, double opt-in, block or last change (issue 41):
-- each order ends in the id, so an index on both gives any page of it in order, where the
-- database sorted all contacts for each page before (100 ms on `seed-large`). The orders by
-- name, email, customer number, company and creation are kept in memory
-- (`db::contacts::orders`).
create index contacts_salutation_id_idx on contacts (salutation, id);
create index contacts_double_opt_in_id_idx on contacts (double_opt_in, id);
drop index contacts_email_blacklisted_idx;
create index contacts_email_blacklisted_id_idx on contacts (email_blacklisted, id);
drop index contacts_updated_at_idx;
create index contacts_updated_at_id_idx on contacts (updated_at, id);
