//! Unsubscribing from advertising mails (issue 37): the link of every package mail blocks the
//! address exactly as the admin's "E-Mail sperren" does, mirrored to Brevo. Opening the link
//! only shows a page; its POST (the page's button, or a mail program's one-click POST of RFC
//! 8058) unsubscribes, so mail scanners that fetch links unsubscribe nobody.

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry, person_name};
use crate::domain::secret::{hash_token, is_token_shaped};
use crate::integrations::brevo::UpdateContact;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror as mirror;

/// Shown once the address is blocked.
pub const DONE: &str =
    "Sie sind abgemeldet. Sie erhalten keine Werbe-E-Mails des Aktionsportals mehr.";
/// Shown for an unknown link.
pub const UNKNOWN: &str =
    "Dieser Abmeldelink ist ungültig. Bitte wenden Sie sich an Ihren Ansprechpartner.";

/// The page of a link (the mail's visible "Abmelden"); only the token's hex digits are kept.
pub fn page_path(token: &str) -> String {
    let token: String = token
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(64)
        .collect();
    format!("/abmelden/{token}")
}

/// The address a POST unsubscribes at (the mail's `List-Unsubscribe` header, the page's form).
pub fn one_click_path(token: &str) -> String {
    format!("/api/unsubscribe/{token}")
}

/// How long a mail's unsubscribe link works: two years, far beyond any package's run, so the
/// links of every mail a contact may still keep work; older ones are removed daily.
pub const LINK_KEPT_DAYS: i64 = 730;

/// Removes the links older than [`LINK_KEPT_DAYS`]; how many went.
pub async fn remove_old_links(db: &Db) -> ServiceResult<u64> {
    let before = db::now() - chrono::Duration::days(LINK_KEPT_DAYS);
    Ok(db::contacts::unsubscribe::remove_older_than(db, before).await?)
}

/// What an unsubscribe link stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnsubscribeState {
    /// Unknown or malformed, or its contact was deleted.
    Invalid,
    /// Valid; the address still gets advertising mails.
    Subscribed,
    /// The address is blocked.
    Unsubscribed,
    /// The link of a preview or test mail, which reached no contact.
    Preview,
}

/// What the link of a preview or test mail says on its page.
pub const PREVIEW: &str = "Dies ist der Abmeldelink der Vorschau oder Testmail. In einer versendeten \
     Ankündigung meldet er den Empfänger mit einem Klick ab.";

/// The state of a link, for its page (a GET: changes nothing).
pub async fn link_state(db: &Db, token: &str) -> ServiceResult<UnsubscribeState> {
    if token == crate::domain::announcements::PREVIEW_UNSUBSCRIBE_TOKEN {
        return Ok(UnsubscribeState::Preview);
    }
    let Some(contact) = contact_of(db, token).await? else {
        return Ok(UnsubscribeState::Invalid);
    };
    Ok(if contact.email_blacklisted {
        UnsubscribeState::Unsubscribed
    } else {
        UnsubscribeState::Subscribed
    })
}

async fn contact_of(db: &Db, token: &str) -> ServiceResult<Option<db::contacts::Contact>> {
    if !is_token_shaped(token) {
        return Ok(None);
    }
    let Some(id) = db::contacts::unsubscribe::contact_of_token(db, &hash_token(token)).await?
    else {
        return Ok(None);
    };
    Ok(db::contacts::get_contact(db, id).await?)
}

/// Blocks the address of the link's contact (`NotFound` for an unknown link). Blocking sets,
/// it never toggles: a second POST changes nothing. Brevo gets the block at once, or later
/// from the retries when it cannot take it now.
pub async fn unsubscribe(db: &Db, marketing: &Marketing, token: &str) -> ServiceResult<()> {
    let contact = contact_of(db, token).await?.ok_or(ServiceError::NotFound)?;
    db::contacts::unsubscribe::mark_used(db, &hash_token(token), db::now()).await?;
    if contact.email_blacklisted {
        return Ok(());
    }
    let audit = Entry::new(
        &Actor::System,
        Action::Block,
        Entity::Contact,
        Some(contact.id),
    )
    .named(person_name(&contact.firstname, &contact.lastname))
    .with_changes(Changes::none().field("email_blacklisted", false, true));
    db::contacts::set_blacklisted(db, contact.id, true, &audit).await?;
    if let Marketing::Brevo(client) = marketing {
        let update = UpdateContact {
            email_blacklisted: Some(true),
            ..UpdateContact::default()
        };
        let target = mirror::identifier(contact.brevo_contact_id, &contact.email);
        if let Err(err) = client.update_contact(target, &update).await {
            mirror::remember_update(db, &contact.email, contact.brevo_contact_id, &update, &err)
                .await;
        }
    }
    Ok(())
}
