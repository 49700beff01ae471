-- Proof of consent (issue 25, DSGVO Art. 7(1), UWG §7): for each double opt-in, the mail
-- whose link was used (when it went out, its Message-ID), and the confirmation (when, the
-- request's address and user agent, and the version of the consent text the page showed).
-- Contacts confirmed before this have no proof: the editor says "Nachweis nicht vorhanden".

-- Each confirmation link remembers its mail once the mail is out.
alter table double_opt_in_tokens add column message_id text;
alter table double_opt_in_tokens add column sent_at text;

alter table contacts add column double_opt_in_mail_sent_at text;
alter table contacts add column double_opt_in_message_id text;
alter table contacts add column double_opt_in_user_agent text;
alter table contacts add column double_opt_in_consent_version text;

-- Every consent text a confirmation page has shown, under its version (the SHA-256 of the
-- text): a proof names the version, and the text stays readable after the page changes.
create table consent_texts (
    version text primary key,
    text text not null,
    created_at text not null,
    updated_at text not null
);
