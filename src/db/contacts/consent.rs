//! The double opt-in of a contact: its links (tokens), the confirmation with its proof, the
//! mails sent, and the counts of what waits.

use super::*;

/// Stores a confirmation link (by the hash of its token) for a contact and the address it
/// is mailed to; it confirms only while the contact has that address.
pub async fn add_token(
    db: &Db,
    contact_id: i64,
    email: &str,
    token_hash: &str,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query(
            "insert into double_opt_in_tokens (token_hash, contact_id, email, expires_at, \
             created_at, updated_at) values ($1, $2, $5, $4, $3, $3)",
        )
        .bind(token_hash)
        .bind(contact_id)
        .bind(now)
        .bind(expires_at)
        .bind(normalize_email(email))
        .execute(pool)
        .await
        .map(drop)
    })
}

/// Ends the links of a contact made before this one (its mail went out: the newest link is
/// the one that counts). Links made after it stay, so two mails at once keep the later one.
pub async fn end_older_tokens(
    db: &Db,
    contact_id: i64,
    token_hash: &str,
) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query(
            "delete from double_opt_in_tokens where contact_id = $1 and created_at < \
             (select created_at from double_opt_in_tokens where token_hash = $2)",
        )
        .bind(contact_id)
        .bind(token_hash)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })
}

/// Removes one link (its mail did not go out, so nobody has it).
pub async fn delete_token(db: &Db, token_hash: &str) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query("delete from double_opt_in_tokens where token_hash = $1")
            .bind(token_hash)
            .execute(pool)
            .await
            .map(drop)
    })
}

/// The contact a link belongs to, if the link is known, has not expired at `at` and was
/// mailed to the address the contact has now.
pub async fn contact_of_token(
    db: &Db,
    token_hash: &str,
    at: DateTime<Utc>,
) -> Result<Option<Contact>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "select ",
            contact_columns!(),
            from_contacts!(),
            " join double_opt_in_tokens t on t.contact_id = c.id and t.email = c.email \
             where t.token_hash = $1 and t.expires_at >= $2"
        ))
        .bind(token_hash)
        .bind(at)
        .fetch_optional(pool)
        .await
    })
}

/// What a confirmation keeps as proof of consent (issue 25). `Default`: nothing (a
/// confirmation made by hand, as tests and seeds do).
#[derive(Clone, Copy, Debug, Default)]
pub struct Proof<'a> {
    /// The link used: its mail's time and Message-ID go into the proof.
    pub token_hash: Option<&'a str>,
    /// The confirming request's address and `User-Agent`.
    pub address: Option<&'a str>,
    pub user_agent: Option<&'a str>,
    /// The consent text the page showed: (version, text). The text is kept once per version.
    pub consent: Option<(&'a str, &'a str)>,
}

/// Records the confirmation of `email` at `at` with its `proof`. False when the contact is
/// gone or has another email address by now (then nothing is written). `audit` is written
/// with it.
pub async fn confirm(
    db: &Db,
    id: i64,
    email: &str,
    at: DateTime<Utc>,
    proof: &Proof<'_>,
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    if let Some((version, text)) = proof.consent {
        tx.execute(
            "insert into consent_texts (version, text, created_at, updated_at) \
             values ($1, $2, $3, $3) on conflict (version) do nothing",
            &[version.into(), text.into(), at.into()],
        )
        .await?;
    }
    let changed = tx
        .execute(
            "update contacts set double_opt_in = true, double_opt_in_at = $2, \
             double_opt_in_address = $3, updated_at = $2, double_opt_in_user_agent = $5, \
             double_opt_in_consent_version = $6, \
             double_opt_in_mail_sent_at = (select sent_at from double_opt_in_tokens \
             where token_hash = $7), \
             double_opt_in_message_id = (select message_id from double_opt_in_tokens \
             where token_hash = $7) \
             where id = $1 and email = $4",
            &[
                id.into(),
                at.into(),
                proof.address.map(str::to_owned).into(),
                normalize_email(email).into(),
                proof.user_agent.map(str::to_owned).into(),
                proof.consent.map(|(version, _)| version.to_owned()).into(),
                proof.token_hash.map(str::to_owned).into(),
            ],
        )
        .await?;
    if changed == 0 {
        return Ok(false);
    }
    audit::record_in(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(true)
}

/// Notes that a confirmation mail went out to the contact at `at`, with `audit`; and, for
/// the proof of consent, the link it carried (token hash) and its Message-ID.
pub async fn mark_mail_sent(
    db: &Db,
    id: i64,
    at: DateTime<Utc>,
    link: Option<(&str, &str)>,
    audit: &Entry,
) -> Result<(), sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    tx.execute(
        "update contacts set double_opt_in_sent_at = $2 where id = $1",
        &[id.into(), at.into()],
    )
    .await?;
    if let Some((token_hash, message_id)) = link {
        tx.execute(
            "update double_opt_in_tokens set sent_at = $2, message_id = $3 \
             where token_hash = $1",
            &[token_hash.into(), at.into(), message_id.into()],
        )
        .await?;
    }
    audit::record_in(&mut tx, audit).await?;
    tx.commit().await
}

/// The consent text of a version, as a confirmation page showed it.
pub async fn consent_text(db: &Db, version: &str) -> Result<Option<String>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar("select text from consent_texts where version = $1")
            .bind(version)
            .fetch_optional(pool)
            .await
    })
}

/// Removes links that expired before `before`; returns how many.
pub async fn delete_expired_tokens(db: &Db, before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query("delete from double_opt_in_tokens where expires_at < $1")
            .bind(before)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
}

/// Contacts still to confirm: (those a mail may go to, i.e. not blocked; all of them).
pub async fn pending_counts(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, (i64, i64)>(
            // Kept by triggers (migration 0014).
            "select unconfirmed_reachable, unconfirmed from contact_totals where id = 1",
        )
        .fetch_one(pool)
        .await
    })
}
