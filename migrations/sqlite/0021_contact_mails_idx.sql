-- A contact's data export (issue 25) lists its mails of mail jobs: found by contact.
create index mail_job_items_contact_idx on mail_job_items (contact_id);
