-- OpenID Connect logins in progress: the state sent to the provider (hashed), the PKCE
-- verifier and the nonce, kept until the provider sends the browser back (at most minutes).
create table oidc_logins (
    state_hash text primary key,
    pkce_verifier text not null,
    nonce text not null,
    created_at text not null,
    updated_at text not null
);
create index oidc_logins_created_at_idx on oidc_logins (created_at);
