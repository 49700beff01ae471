//! A package's mails as the mail queue sends them (issue 37): the announcement to each
//! confirmed, unblocked contact the job took from the package's lists, and the notice before
//! the end to those of the customer numbers that took it (naming their files); each with its
//! own one-click unsubscribe link (RFC 8058 headers and a visible "Abmelden").

use crate::db::catalog::announcements::PackageMail;
use crate::db::contacts::Contact;
use crate::db::operations::mail_jobs::MailJob;
use crate::db::{self, Db};
use crate::domain::announcements::{
    AnnouncementText, MailImages, MailLinks, PackageFacts, announcement_mail, end_notice_mail,
};
use crate::domain::format::date;
use crate::domain::secret::{hash_token, new_token};
use crate::domain::user::User;
use crate::integrations::mail::{MailError, Mailer, OutgoingMail};
use crate::services::catalog::announcements::{self, AnnouncementInput, MailFrame, package_link};
use crate::services::contacts::mailing::{ItemSent, MailSettings};
use crate::services::contacts::unsubscribe;
use crate::services::error::ServiceError;
use crate::services::error::ServiceResult;

/// What every mail of a package's job says, read once per job and round.
#[derive(Clone, Debug)]
pub struct Prepared {
    download_id: i64,
    mail: PackageMail,
    text: AnnouncementText,
    facts: PackageFacts,
    images: MailImages,
}

/// The mail of `job`'s package; `None` when it is not to be sent any more: the package was
/// archived or deleted, or the mail switched off (a notice also once the package ended).
pub(super) async fn prepare(
    db: &Db,
    job: &MailJob,
    link_base: &str,
) -> ServiceResult<Option<Prepared>> {
    let Some(download_id) = job.download_id else {
        return Ok(None);
    };
    let Some(package) = db::catalog::packages::get(db, download_id).await? else {
        return Ok(None);
    };
    let mail = if job.kind == PackageMail::EndNotice.kind() {
        PackageMail::EndNotice
    } else {
        PackageMail::Announcement
    };
    let settings = db::catalog::announcements::get(db, download_id).await?;
    let Some(settings) = settings.filter(|s| match mail {
        PackageMail::Announcement => s.announce,
        PackageMail::EndNotice => s.reminder_days > 0 && package.end_at > db::now(),
    }) else {
        return Ok(None);
    };
    if package.archived {
        return Ok(None);
    }
    // Stored only after the same check; a text that no longer passes is not sent.
    let Ok(text) = AnnouncementText::parse(&settings.subject, &settings.body) else {
        tracing::error!(
            package = download_id,
            "stored announcement text is not valid"
        );
        return Ok(None);
    };
    let provider = db::marketing::providers::get_many(db, &[package.provider_id])
        .await?
        .pop()
        .map(|p| p.name)
        .unwrap_or_default();
    let facts = PackageFacts {
        name: package.name,
        provider,
        start: date(package.start_at),
        end: date(package.end_at),
    };
    let images = match mail {
        PackageMail::Announcement => announcements::mail_images(db, link_base, download_id).await?,
        PackageMail::EndNotice => MailImages::default(),
    };
    Ok(Some(Prepared {
        download_id,
        mail,
        text,
        facts,
        images,
    }))
}

/// Stores the one-click unsubscribe link of a mail of `prepared`'s package to contact
/// `contact_id`; returns its token. Stored before the mail is sent, so the link works from
/// the moment the mail is out, and by the mail queue one item ahead of the send, so that the
/// store is not one more round trip on the sending path (issue 37). `None` when the contact
/// no longer exists.
pub(super) async fn store_link(
    db: &Db,
    prepared: &Prepared,
    contact_id: i64,
) -> ServiceResult<Option<String>> {
    let token = new_token();
    let stored = db::contacts::unsubscribe::add_token(
        db,
        &hash_token(&token),
        contact_id,
        Some(prepared.download_id),
        db::now(),
    )
    .await?;
    Ok(stored.then_some(token))
}

/// Removes a stored link whose mail reached nobody (nobody can use it).
pub(super) async fn drop_link(db: &Db, token: &str) -> ServiceResult<()> {
    Ok(db::contacts::unsubscribe::remove_token(db, &hash_token(token)).await?)
}

/// Sends the package's mail to `contact` with the unsubscribe link `token`
/// ([`store_link`]) unless it is no longer to be mailed (confirmation withdrawn or blocked
/// since the job started; the link then goes).
pub(super) async fn send_item(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    job: &MailJob,
    prepared: &Prepared,
    contact: &Contact,
    token: &str,
) -> ServiceResult<ItemSent> {
    if !contact.double_opt_in || contact.email_blacklisted {
        drop_link(db, token).await?;
        return Ok(ItemSent::Skipped);
    }
    let links = MailLinks {
        package: package_link(&settings.link_base, prepared.download_id),
        unsubscribe: format!("{}{}", settings.link_base, unsubscribe::page_path(token)),
    };
    let content = match prepared.mail {
        PackageMail::Announcement => announcement_mail(
            &prepared.text,
            &prepared.facts,
            &prepared.images,
            &links,
            &settings.sender,
            &settings.product_name,
        ),
        PackageMail::EndNotice => {
            let files = db::insight::statistics::takers::files_taken(
                db,
                prepared.download_id,
                contact.customer_number,
            )
            .await?;
            end_notice_mail(
                &prepared.facts,
                &files,
                &links,
                &settings.sender,
                &settings.product_name,
            )
        }
    };
    let name = format!("{} {}", contact.firstname, contact.lastname);
    let mail = OutgoingMail {
        to_email: contact.email.clone(),
        to_name: Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        subject: content.subject,
        text: content.text,
        html: content.html,
        // The same Message-ID if this item is sent again after a crash.
        message_id: format!(
            "<{}-{}-{}@{}>",
            job.kind.replace('_', "-"),
            job.id,
            contact.id,
            settings.message_domain
        ),
        template_params: None,
        headers: OutgoingMail::one_click_unsubscribe(&format!(
            "{}{}",
            settings.link_base,
            unsubscribe::one_click_path(token)
        )),
        tags: vec![format!("package-{}", prepared.download_id)],
    };
    let sent = mailer.send(&mail).await;
    if sent.as_ref().is_err_and(MailError::certainly_not_sent) {
        // The mail reached nobody: its link goes (another attempt makes its own). After a
        // timeout the mail may have gone out, and Brevo takes a repeated call (same
        // idempotency key) for this one: the link it carries stays valid.
        drop_link(db, token).await?;
    }
    Ok(match sent {
        Ok(sent) => ItemSent::Sent(sent),
        Err(err) if err.is_passing() => ItemSent::Passing(err.to_string()),
        Err(err) => ItemSent::Failed(err.to_string()),
    })
}

/// The answer of "Testmail an mich" (`POST /api/download/{id}/announcement/test-mail`).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestMailSent {
    /// The signed-in user's own address, where the mail went.
    pub sent_to: String,
    pub message_id: String,
}

/// Sends the announcement of package `id` with the subject and text of `input` (saved or not)
/// to `user`'s own address, as the preview shows it ("Testmail an mich"). Only those who may
/// manage the package; nobody else is mailed.
pub async fn send_test(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    user: &User,
    id: i64,
    input: &AnnouncementInput,
) -> ServiceResult<TestMailSent> {
    let frame = MailFrame {
        link_base: settings.link_base.clone(),
        product_name: settings.product_name.clone(),
        sender: settings.sender.clone(),
    };
    let preview = announcements::preview(db, user, id, input, &frame).await?;
    if !user.email.contains('@') {
        return Err(ServiceError::Invalid(
            "Ihr Konto hat keine E-Mail-Adresse, an die die Testmail gehen könnte.".into(),
        ));
    }
    let unique = new_token();
    let mail = OutgoingMail {
        to_email: user.email.clone(),
        to_name: Some(user.name.clone()).filter(|n| !n.trim().is_empty()),
        subject: preview.subject,
        text: preview.text,
        html: preview.html,
        message_id: format!(
            "<announcement-test-{id}-{}@{}>",
            unique.get(..16).unwrap_or("0"),
            settings.message_domain
        ),
        template_params: None,
        headers: Vec::new(),
        tags: vec![format!("package-{id}-test")],
    };
    match mailer.send(&mail).await {
        Ok(message_id) => Ok(TestMailSent {
            sent_to: user.email.clone(),
            message_id,
        }),
        Err(err) => {
            tracing::warn!(error = %err, package = id, "test mail not sent");
            Err(ServiceError::Upstream(err.user_message()))
        }
    }
}
