-- Rights that hold everywhere (issue 20).

-- Who uploaded a file (the session's subject, e.g. `local:3` or `oidc:…`): only its uploader
-- may put a fresh upload into a package. Older rows have none and are attachable only through
-- a package that already holds them.
alter table uploads add column uploaded_by text;

-- A confirmation link confirms only the address it was mailed to. Older links get the
-- contact's address of now.
alter table double_opt_in_tokens add column email text;
update double_opt_in_tokens set email =
    (select c.email from contacts c where c.id = double_opt_in_tokens.contact_id);

-- An OpenID login is finished only in the browser that started it: the hash of a random
-- value kept in that browser's cookie.
alter table oidc_logins add column browser_hash text;
