-- The mail queue's claim seeks an item whose retry is due by this index (issue 37): only the
-- few items waiting for another attempt are in it, so the seek reads nothing else. The items
-- never tried are sought in `mail_job_items_job_state_idx` after the worker's place.
create index mail_job_items_retry_idx on mail_job_items (job_id, next_attempt_at, contact_id)
where state = 'pending' and next_attempt_at is not null;
