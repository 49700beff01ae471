//! Double opt-in (spec §1, §2 "Double opt-in page", §7 `/api/smtp/...`): the confirmation
//! mail to one contact or, as a job, to all pending contacts, and the confirmation itself.
//!
//! A link carries a random token of 256 bits; only its SHA-256 is stored, with an expiry.
//! A link is kept only when its mail went out; `double_opt_in_sent_at` is set only then, so a
//! failed mail leaves the contact as it was.
//! Opening the link shows a page; only its POST confirms, so mail scanners that fetch links
//! confirm nobody.

use chrono::Duration;
use serde::Serialize;
use serde_json::{Map, json};
use tokio::sync::Notify;

use crate::db::operations::mail_jobs::{self, ItemCounts, MailJob};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry, person_name};
use crate::domain::double_opt_in::{self as doi, Recipient};
use crate::domain::secret::{hash_token, is_token_shaped, new_token};
use crate::domain::user::User;
use crate::integrations::brevo::UpdateContact;
use crate::integrations::mail::{Mailer, OutgoingMail};
use crate::services::contacts::mailing::{ItemSent, MailSettings};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror::{self as mirror, attribute};

/// Code of an answer for a contact who has confirmed already (spec §7).
pub const ALREADY_DONE: &str = "DOUBLE_OPT-IN_ALREADY_DONE";
/// Code of the mass mail outside production (spec §7).
pub const ONLY_IN_PRODUCTION: &str = "function_only_in_production_available";
/// The warning shown for it (spec §7, verbatim).
pub const ONLY_IN_PRODUCTION_MESSAGE: &str =
    "Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!";

/// The least time between two confirmation mails to one contact from the send action.
pub const RESEND_AFTER: Duration = Duration::seconds(60);

/// The answer of `POST /api/smtp/email/{email}` (spec §7: status, messageId, code).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DoubleOptInSent)]
#[serde(rename_all = "camelCase")]
pub struct SendAnswer {
    /// 201: the mail was sent; 200: the contact has confirmed already, nothing was sent.
    pub status: u16,
    /// The sent mail's Message-ID; `null` when nothing was sent.
    pub message_id: Option<String>,
    pub code: String,
    pub message: String,
}

/// Composes and sends the confirmation mail with a new link; `message_id` is our own
/// Message-ID for SMTP and the outbox. The audit log names `actor` as the sender.
async fn send_to(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    contact: &db::contacts::Contact,
    message_id: String,
    actor: &Actor,
) -> ServiceResult<String> {
    let token = new_token();
    let token_hash = hash_token(&token);
    let now = db::now();
    db::contacts::add_token(
        db,
        contact.id,
        &contact.email,
        &token_hash,
        now + Duration::days(settings.valid_days),
    )
    .await?;
    let link = format!("{}{}", settings.link_base, doi::link_path(&token));
    let content = doi::confirmation_mail(
        &Recipient {
            salutation: contact.salutation,
            firstname: &contact.firstname,
            lastname: &contact.lastname,
        },
        &settings.product_name,
        &link,
        settings.valid_days,
    );
    let mut params = Map::new();
    params.insert(attribute::FIRSTNAME.into(), json!(contact.firstname));
    params.insert(attribute::LASTNAME.into(), json!(contact.lastname));
    params.insert(
        attribute::SALUTATION.into(),
        json!(
            crate::domain::contacts::Salutation::from_code(Some(contact.salutation))
                .map(|s| s.label())
                .unwrap_or("")
        ),
    );
    params.insert("CONFIRM_URL".into(), json!(link));
    let name = format!("{} {}", contact.firstname, contact.lastname);
    let mail = OutgoingMail {
        to_email: contact.email.clone(),
        to_name: Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        subject: content.subject,
        text: content.text,
        html: content.html,
        message_id,
        template_params: Some(params),
        headers: Vec::new(),
        tags: Vec::new(),
    };
    let sent = match mailer.send(&mail).await {
        Ok(sent) => sent,
        Err(err) => {
            tracing::warn!(error = %err, contact = contact.id, "double opt-in mail not sent");
            // A link exists only while its mail went out: one that reached nobody goes again.
            if let Err(db_err) = db::contacts::delete_token(db, &token_hash).await {
                tracing::error!(error = %db_err, contact = contact.id, "unsent link not removed");
            }
            return Err(ServiceError::Upstream(err.user_message()));
        }
    };
    let audit = Entry::new(
        actor,
        Action::DoubleOptInSent,
        Entity::Contact,
        Some(contact.id),
    )
    .named(person_name(&contact.firstname, &contact.lastname))
    .with_changes(Changes::none().field(
        "double_opt_in_sent_to",
        serde_json::Value::Null,
        &contact.email,
    ));
    db::contacts::mark_mail_sent(
        db,
        contact.id,
        db::now(),
        Some((&token_hash, &sent)),
        &audit,
    )
    .await?;
    // The newest mail's link is the one that counts; older ones end.
    db::contacts::end_older_tokens(db, contact.id, &token_hash).await?;
    Ok(sent)
}

fn message_id(settings: &MailSettings, unique: &str) -> String {
    format!("<doi-{unique}@{}>", settings.message_domain)
}

/// `POST /api/smtp/email/{email}`: the confirmation mail to one contact.
#[tracing::instrument(skip_all)]
pub async fn send_one(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    user: &User,
    email: &str,
) -> ServiceResult<SendAnswer> {
    let contact = db::contacts::find_contact_by_email(db, email)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if contact.double_opt_in {
        return Ok(SendAnswer {
            status: 200,
            message_id: None,
            code: ALREADY_DONE.into(),
            message: format!(
                "{} hat die E-Mail-Adresse bereits bestätigt.",
                contact.email
            ),
        });
    }
    if contact.email_blacklisted {
        return Err(ServiceError::Conflict {
            code: "email_blacklisted",
            message: format!(
                "{} ist gesperrt. Bitte heben Sie die Sperre auf, bevor Sie die Bestätigung erneut senden.",
                contact.email
            ),
        });
    }
    // A double click or an impatient admin must not flood the contact's inbox.
    if contact
        .double_opt_in_sent_at
        .is_some_and(|sent| db::now() - sent < RESEND_AFTER)
    {
        return Err(ServiceError::Conflict {
            code: "double_opt_in_recently_sent",
            message: format!(
                "An {} wurde gerade erst eine Bestätigung gesendet. Bitte warten Sie eine Minute.",
                contact.email
            ),
        });
    }
    let unique = format!("{}-{}", contact.id, new_token().get(..16).unwrap_or("0"));
    let sent = send_to(
        db,
        mailer,
        settings,
        &contact,
        message_id(settings, &unique),
        &Actor::of(user),
    )
    .await?;
    Ok(SendAnswer {
        status: 201,
        message_id: Some(sent),
        code: "DOUBLE_OPT-IN_SENT".into(),
        message: format!("Double-Opt-In an {} gesendet.", contact.email),
    })
}

/// What a confirmation link stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Unknown, malformed or expired.
    Invalid,
    /// Valid and waiting for the POST.
    Pending,
    /// The contact has confirmed.
    Confirmed,
}

/// The state of a link, for the confirmation page (a GET: changes nothing).
pub async fn link_state(db: &Db, token: &str) -> ServiceResult<LinkState> {
    if !is_token_shaped(token) {
        return Ok(LinkState::Invalid);
    }
    Ok(
        match db::contacts::contact_of_token(db, &hash_token(token), db::now()).await? {
            None => LinkState::Invalid,
            Some(contact) if contact.double_opt_in => LinkState::Confirmed,
            Some(_) => LinkState::Pending,
        },
    )
}

/// The request that confirms: kept as proof of consent.
#[derive(Clone, Copy, Debug)]
pub struct Confirming<'a> {
    /// The client's address (behind trusted proxies, the one they name).
    pub address: &'a str,
    /// The request's `User-Agent`, as sent.
    pub user_agent: Option<&'a str>,
}

/// Confirms the contact of a link (`PATCH /api/contacts/confirm-double-opt-in/{token}` and
/// the confirmation page's form), for the address the link was mailed to. The confirmation is
/// recorded first (only while the contact still has that address) with its proof: the link's
/// mail, the request, and the consent text the page shows. Then Brevo gets `DOUBLE_OPT-IN` =
/// 1; if Brevo cannot take it now, its update is kept for a retry. An unknown or expired
/// link, or one mailed to an address the contact no longer has, is `NotFound`.
#[tracing::instrument(skip_all)]
pub async fn confirm(
    db: &Db,
    marketing: &Marketing,
    token: &str,
    by: Confirming<'_>,
) -> ServiceResult<()> {
    if !is_token_shaped(token) {
        return Err(ServiceError::NotFound);
    }
    let now = db::now();
    let contact = db::contacts::contact_of_token(db, &hash_token(token), now)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if contact.double_opt_in {
        return Ok(());
    }
    // The address may have changed since the link was read: then this confirms nothing.
    let audit = Entry::new(
        &Actor::System,
        Action::DoubleOptInConfirmed,
        Entity::Contact,
        Some(contact.id),
    )
    .named(person_name(&contact.firstname, &contact.lastname))
    .with_changes(Changes::none().field("double_opt_in", false, true));
    let token_hash = hash_token(token);
    let user_agent = by.user_agent.and_then(doi::kept_user_agent);
    let version = doi::consent_version(doi::CONSENT_TEXT);
    let proof = db::contacts::Proof {
        token_hash: Some(&token_hash),
        address: Some(by.address),
        user_agent: user_agent.as_deref(),
        consent: Some((&version, doi::CONSENT_TEXT)),
    };
    if !db::contacts::confirm(db, contact.id, &contact.email, now, &proof, &audit).await? {
        return Err(ServiceError::NotFound);
    }
    if let Marketing::Brevo(client) = marketing {
        let mut attributes = Map::new();
        attributes.insert(
            attribute::DOUBLE_OPT_IN.into(),
            mirror::double_opt_in_value(true),
        );
        let update = UpdateContact {
            attributes,
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

/// The answer of `POST /api/smtp/emails` (spec §7: code, count, total).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = MassMailAnswer)]
#[serde(rename_all = "camelCase")]
pub struct MassAnswer {
    /// `function_only_in_production_available`: not in production, nothing sent ("Diese Funktion
    /// ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!"); `job_started`: a new
    /// job; `job_running`: a job was running already, it is returned.
    pub code: String,
    /// Contacts the job mails (pending and not blocked).
    pub count: i64,
    /// All contacts that have not confirmed.
    pub total: i64,
    pub message: String,
    /// The job; `null` outside production.
    pub job: Option<JobView>,
}

/// A job and how far it has come.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = MailJob)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    #[serde(flatten)]
    pub job: MailJob,
    #[serde(flatten)]
    pub items: ItemCounts,
}

async fn job_view(db: &Db, job: MailJob) -> ServiceResult<JobView> {
    let items = mail_jobs::item_counts(db, job.id).await?;
    Ok(JobView { job, items })
}

/// Removes the double opt-in links whose 14 days have passed.
pub async fn remove_expired_links(db: &Db) -> ServiceResult<()> {
    db::contacts::delete_expired_tokens(db, db::now()).await?;
    Ok(())
}

/// `POST /api/smtp/emails`: starts the mail to all pending contacts (production only), or
/// reports the job already running.
pub async fn send_all(
    db: &Db,
    settings: &MailSettings,
    wake: &Notify,
    user: &User,
) -> ServiceResult<MassAnswer> {
    let (count, total) = db::contacts::pending_counts(db).await?;
    if !settings.production {
        return Ok(MassAnswer {
            code: ONLY_IN_PRODUCTION.into(),
            count,
            total,
            message: ONLY_IN_PRODUCTION_MESSAGE.into(),
            job: None,
        });
    }
    let actor = Actor::of(user);
    let audit = Entry::new(&actor, Action::DoubleOptInSent, Entity::Contact, None);
    let (job, started) =
        mail_jobs::start_double_opt_in(db, actor.name(), db::now(), &audit).await?;
    wake.notify_one();
    let view = job_view(db, job).await?;
    Ok(if started {
        MassAnswer {
            code: "job_started".into(),
            count: view.job.total,
            total,
            message: format!(
                "Double-Opt-In wird an {}/{} Kontakte gesendet.",
                view.job.total, total
            ),
            job: Some(view),
        }
    } else {
        MassAnswer {
            code: "job_running".into(),
            count: view.job.total,
            total,
            message: format!(
                "Der Versand läuft bereits: {} von {} gesendet.",
                view.items.sent, view.job.total
            ),
            job: Some(view),
        }
    })
}

/// The newest job with its progress.
pub async fn latest_job(db: &Db) -> ServiceResult<Option<JobView>> {
    match mail_jobs::latest(db).await? {
        Some(job) => Ok(Some(job_view(db, job).await?)),
        None => Ok(None),
    }
}

/// The double opt-in mail of a job's item to `contact` (as read when its item was claimed),
/// unless the contact confirmed or was blocked since the job started.
pub(super) async fn send_item(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    job: &MailJob,
    contact: &db::contacts::Contact,
) -> ServiceResult<ItemSent> {
    if contact.double_opt_in || contact.email_blacklisted {
        return Ok(ItemSent::Skipped);
    }
    // The same Message-ID if this item is sent again after a crash.
    let id = message_id(settings, &format!("{}-{}", job.id, contact.id));
    Ok(
        match send_to(db, mailer, settings, contact, id, &Actor::System).await {
            Ok(sent) => ItemSent::Sent(sent),
            Err(err) => ItemSent::Failed(err.to_string()),
        },
    )
}

/// The sending state of the latest job as JSON for the admin screen.
/// The answer of `GET /api/smtp/emails`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct MailJobState {
    /// The newest job (running or done); `null` when there has been none.
    pub job: Option<JobView>,
}
