-- Login attempts per account and per client address in the current window. An attempt is
-- counted here before its password is hashed, so a burst of simultaneous guesses cannot test
-- more passwords than the throttle allows, and several instances share the count.
create table login_attempts (
    throttle_key text primary key,
    attempts integer not null,
    window_start text not null,
    created_at text not null,
    updated_at text not null
);
create index login_attempts_window_start_idx on login_attempts (window_start);

-- Where the browser returns after an OpenID login (a same-origin path), if anywhere.
alter table oidc_logins add column return_to text;
