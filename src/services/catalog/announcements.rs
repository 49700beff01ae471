//! A package's mails (issue 37): the settings of its announcement at the start and of the
//! notice before its end, how many contacts an announcement reaches, and the mail as it will
//! be sent. Only Admin and the roles of the package's provider may see or change them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::db::catalog::announcements::{
    AnnouncementRecord, AnnouncementSettings, PackageMail, SaveOutcome,
};
use crate::db::operations::mail_jobs;
pub use crate::db::operations::mail_jobs::FailedMail;
use crate::db::{self, Db};
use crate::domain::announcements::{
    AnnouncementText, MailImages, MailLinks, PLACEHOLDERS, PackageFacts, ReminderDays,
    SenderDetails, announcement_mail,
};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::format::date;
use crate::domain::paging::{MAX_PAGE_SIZE, Paging};
use crate::domain::user::User;
use crate::services::catalog::packages::managed;
use crate::services::error::{ServiceError, ServiceResult};

/// Body of `PUT /api/download/{id}/announcement` and of its preview.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementInput {
    /// "Bei Start ankündigen".
    pub announce: bool,
    /// The subject, one line; placeholders `{Paket}`, `{Anbieter}`, `{Gültig ab}`,
    /// `{Gültig bis}`. Anything else in braces is refused with a message naming it.
    #[schema(min_length = 3, max_length = 150)]
    pub subject: String,
    /// The short text, with line breaks and the same placeholders.
    #[schema(min_length = 1, max_length = 2000)]
    pub text: String,
    /// "Erinnerung vor Ablauf": days before the end on which the contacts of every customer
    /// number that took the package are told; 0 switches it off.
    #[schema(minimum = 0, maximum = 60)]
    pub reminder_days: i64,
    /// Switching the announcement on for a package that has already started sends it at
    /// once: only with `true` here (else 409 `confirmation_required`, naming how many).
    #[serde(default)]
    pub confirm_started: bool,
}

/// A package's mail settings (`GET`/`PUT /api/download/{id}/announcement`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementView {
    pub download_id: i64,
    pub announce: bool,
    pub subject: String,
    pub text: String,
    pub reminder_days: i64,
    /// False: nothing was saved for the package (made before announcements existed, or
    /// never saved), so nothing is sent; the fields show what a new announcement starts with.
    pub saved: bool,
    /// How many addresses an announcement reaches now ("wird an 1.234 Kontakte gesendet"):
    /// confirmed, not blocked contacts on the package's lists, each address once.
    pub recipients: i64,
    /// When the announcement was queued (`null`: not yet).
    pub announced_at: Option<DateTime<Utc>>,
    /// When the notice before the end was queued (`null`: not yet).
    pub reminded_at: Option<DateTime<Utc>>,
    /// How the queued announcement's mails stand (`null`: not queued yet): "Angekündigt am …
    /// an N Kontakte (M gesendet, K fehlgeschlagen)".
    pub mails: Option<AnnouncementMails>,
    /// How the queued notice before the end stands (`null`: not queued yet): to the contacts
    /// of the customer numbers that took the package.
    pub end_notice_mails: Option<AnnouncementMails>,
    /// The placeholders subject and text may hold, as written there.
    pub placeholders: Vec<String>,
}

/// The mails of a queued announcement, per state.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementMails {
    /// The addresses it was queued for.
    pub recipients: i64,
    pub sent: i64,
    /// Failed for good (the reason is kept per address).
    pub failed: i64,
    /// Not sent yet: waiting for their turn, or for another attempt after a passing failure.
    pub waiting: i64,
    /// Not sent: consent withdrawn, blocked or deleted meanwhile, or the package archived.
    pub skipped: i64,
}

/// A package's queued announcement as the admin list shows it ("Angekündigt am … an N
/// Kontakte (M gesendet, K fehlgeschlagen)"), `GET /api/announcements?ids=…`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementStatus {
    pub download_id: i64,
    /// When it was queued.
    pub announced_at: DateTime<Utc>,
    pub mails: AnnouncementMails,
}

/// The mail as it will be sent (`POST /api/download/{id}/announcement/preview`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MailPreview {
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part.
    pub html: String,
}

/// What the mails are framed with: the portal's public address and name, and the sender's
/// legal details.
#[derive(Clone, Debug, Default)]
pub struct MailFrame {
    pub link_base: String,
    pub product_name: String,
    pub sender: SenderDetails,
}

/// What the download form's section "Ankündigung per E-Mail" starts with for a new package:
/// the German template, switched on. Announcing each package to the consenting contacts of its
/// lists is what the portal is for, and the form shows how many it reaches before saving; a
/// package that has started needs a confirmation first.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementStart {
    pub announce: bool,
    pub subject: String,
    pub text: String,
    pub reminder_days: i64,
}

pub fn new_package_start() -> AnnouncementStart {
    let template = AnnouncementText::default_template();
    AnnouncementStart {
        announce: true,
        subject: template.subject.as_str().to_string(),
        text: template.text.as_str().to_string(),
        reminder_days: i64::from(ReminderDays::DEFAULT.get()),
    }
}

/// The settings of package `id` (those a new announcement starts with when none are saved).
pub async fn settings(db: &Db, user: &User, id: i64) -> ServiceResult<AnnouncementView> {
    managed(db, user, id).await?;
    let record = db::catalog::announcements::get(db, id).await?;
    view(db, id, record).await
}

/// Stores the settings of package `id`, audited. Switching the announcement on for a package
/// that has started (and was not announced) needs `confirm_started`: it then goes out at once.
pub async fn save(
    db: &Db,
    user: &User,
    id: i64,
    input: &AnnouncementInput,
) -> ServiceResult<AnnouncementView> {
    let package = managed(db, user, id).await?;
    let (text, reminder) = parse(input)?;
    let before = db::catalog::announcements::get(db, id).await?;
    let settings = AnnouncementSettings {
        download_id: id,
        announce: input.announce,
        subject: text.subject.as_str().to_string(),
        body: text.text.as_str().to_string(),
        reminder_days: i32::from(reminder.get()),
    };
    let mut changes = Changes::none();
    changes = match &before {
        Some(b) => changes
            .field("announce", b.announce, settings.announce)
            .field("subject", &b.subject, &settings.subject)
            .field("body", &b.body, &settings.body)
            .field("reminder_days", b.reminder_days, settings.reminder_days),
        None => changes
            .field("announce", false, settings.announce)
            .field("subject", "", &settings.subject)
            .field("body", "", &settings.body)
            .field("reminder_days", 0, settings.reminder_days),
    };
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Package, Some(id))
        .with_changes(changes);
    let saved =
        db::catalog::announcements::save(db, &settings, input.confirm_started, &audit).await;
    let mut record = match saved {
        Ok(SaveOutcome::Saved(record)) => record,
        Ok(SaveOutcome::NeedsConfirmation) => {
            let recipients = db::catalog::announcements::recipient_count(db, id).await?;
            return Err(ServiceError::Conflict {
                code: "confirmation_required",
                message: format!(
                    "Das Paket hat bereits begonnen: Die Ankündigung geht sofort an {} Kontakte. \
                     Bitte bestätigen Sie den Versand.",
                    crate::domain::format::count(recipients)
                ),
            });
        }
        // Deleted since the rights were checked.
        Ok(SaveOutcome::Missing) => return Err(ServiceError::NotFound),
        Err(err) if db::is_foreign_key_violation(&err) => return Err(ServiceError::NotFound),
        Err(err) => return Err(err.into()),
    };
    // Switched on for a package that has started: queued at once, not at the next round
    // (`queue` checks again that it is due; a start moved meanwhile waits for the round).
    if record.announce && record.announced_at.is_none() && package.start_at <= Utc::now() {
        queue(db, id).await?;
        record = db::catalog::announcements::get(db, id)
            .await?
            .ok_or(ServiceError::NotFound)?;
    }
    view(db, id, Some(record)).await
}

/// "Erneut ankündigen": queues the announcement of package `id` again for the addresses it has
/// not reached (those added to its lists since, and those whose mail failed). Only for an
/// announcement that went out, of a package that is neither archived nor ended.
pub async fn announce_again(db: &Db, user: &User, id: i64) -> ServiceResult<AnnouncementView> {
    let package = managed(db, user, id).await?;
    let record = db::catalog::announcements::get(db, id).await?;
    let Some(record) = record.filter(|r| r.announce && r.announced_at.is_some()) else {
        return Err(ServiceError::Conflict {
            code: "conflict",
            message: "Die Ankündigung wurde noch nicht versendet.".into(),
        });
    };
    if package.archived || package.end_at <= Utc::now() {
        return Err(ServiceError::Conflict {
            code: "conflict",
            message: "Das Paket ist archiviert oder abgelaufen und wird nicht mehr angekündigt."
                .into(),
        });
    }
    let audit = Entry::new(
        &Actor::of(user),
        Action::Announce,
        Entity::Package,
        Some(id),
    );
    db::catalog::announcements::requeue_announcement(db, id, Utc::now(), &audit).await?;
    view(db, id, Some(record)).await
}

/// Queues every announcement that is due (switched on, started, not ended, not archived, not
/// queued yet) in the mail queue, to the recipients of this moment; how many were queued.
/// Every instance runs this; each package is queued by one of them only.
pub async fn queue_due(db: &Db) -> ServiceResult<usize> {
    let mut queued = 0;
    for id in db::catalog::announcements::due_announcements(db, Utc::now()).await? {
        queued += usize::from(queue(db, id).await?);
    }
    Ok(queued)
}

/// Queues the announcement of package `id` if it is still due; whether it was.
async fn queue(db: &Db, id: i64) -> ServiceResult<bool> {
    queue_mail(db, PackageMail::Announcement, id).await
}

/// Queues `mail` of package `id` if it is still due; whether it was.
pub(super) async fn queue_mail(db: &Db, mail: PackageMail, id: i64) -> ServiceResult<bool> {
    let action = match mail {
        PackageMail::Announcement => Action::Announce,
        PackageMail::EndNotice => Action::EndNotice,
    };
    let audit = Entry::new(&Actor::System, action, Entity::Package, Some(id));
    match db::catalog::announcements::queue_mail(db, mail, id, Utc::now(), &audit).await {
        Ok(Some((job, total))) => {
            tracing::info!(
                package = id,
                job,
                recipients = total,
                kind = mail.kind(),
                "package mail queued"
            );
            Ok(true)
        }
        Ok(None) => Ok(false),
        // Queued by another instance at the same moment.
        Err(err) if db::is_unique_violation(&err) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

/// The announcement of package `id` with the subject and text of `input` (saved or not), as
/// it will be sent.
pub async fn preview(
    db: &Db,
    user: &User,
    id: i64,
    input: &AnnouncementInput,
    frame: &MailFrame,
) -> ServiceResult<MailPreview> {
    let package = managed(db, user, id).await?;
    // The whole body is checked, as a save checks it: a preview of settings that cannot be
    // saved would mislead.
    let (text, _) = parse(input)?;
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
    let links = MailLinks {
        package: package_link(&frame.link_base, id),
        // Each recipient's own link; the preview shows where it leads.
        unsubscribe: format!(
            "{}/abmelden/{}",
            frame.link_base,
            crate::domain::announcements::PREVIEW_UNSUBSCRIBE_TOKEN
        ),
    };
    let images = mail_images(db, &frame.link_base, id).await?;
    let mail = announcement_mail(
        &text,
        &facts,
        &images,
        &links,
        &frame.sender,
        &frame.product_name,
    );
    Ok(MailPreview {
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
    })
}

/// The pictures package `id`'s announcement shows (its provider's logo and up to four of its
/// files' thumbnails), at their public addresses: a mail program loads them without a session.
pub(crate) async fn mail_images(db: &Db, link_base: &str, id: i64) -> ServiceResult<MailImages> {
    let (logo, files) = db::catalog::previews::pictures_of_package(db, id).await?;
    let url = |p: &db::catalog::previews::MailPicture| {
        crate::services::catalog::files::mail_picture_url(link_base, p.upload_id, &p.storage_key)
    };
    Ok(MailImages {
        logo: logo.as_ref().map(url),
        previews: files.iter().map(url).collect(),
    })
}

/// The failed mails of package `id`'s announcement (and those waiting after a failure), a
/// page (`limit` 1–1000, default 20); empty before it was queued.
pub async fn failures(
    db: &Db,
    user: &User,
    id: i64,
    limit: Option<i64>,
    offset: Option<i64>,
) -> ServiceResult<Vec<FailedMail>> {
    let paging =
        Paging::parse(limit, offset, None, MAX_PAGE_SIZE).map_err(ServiceError::Invalid)?;
    managed(db, user, id).await?;
    let Some(job) = mail_jobs::of_package(db, id, mail_jobs::ANNOUNCEMENT).await? else {
        return Ok(Vec::new());
    };
    Ok(mail_jobs::failed_items(db, job.id, paging.limit, paging.offset).await?)
}

/// The subject, text and reminder days of `input`, or the German message of the first that is
/// not allowed.
fn parse(input: &AnnouncementInput) -> ServiceResult<(AnnouncementText, ReminderDays)> {
    let text =
        AnnouncementText::parse(&input.subject, &input.text).map_err(ServiceError::Invalid)?;
    let reminder = ReminderDays::parse(input.reminder_days).map_err(ServiceError::Invalid)?;
    Ok((text, reminder))
}

/// The customer page with package `id` opened ("Zum Paket"), marked as followed from a mail
/// (its downloads in that visit count with the channel `mail`).
pub fn package_link(link_base: &str, id: i64) -> String {
    format!("{link_base}/user/downloads?paket={id}&von=mail")
}

async fn view(
    db: &Db,
    id: i64,
    record: Option<AnnouncementRecord>,
) -> ServiceResult<AnnouncementView> {
    let recipients = db::catalog::announcements::recipient_count(db, id).await?;
    let placeholders = PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
    let mails = job_mails(db, id, PackageMail::Announcement).await?;
    let end_notice_mails = job_mails(db, id, PackageMail::EndNotice).await?;
    Ok(match record {
        Some(r) => AnnouncementView {
            download_id: id,
            announce: r.announce,
            subject: r.subject,
            text: r.body,
            reminder_days: i64::from(r.reminder_days),
            saved: true,
            recipients,
            announced_at: r.announced_at,
            reminded_at: r.reminded_at,
            mails,
            end_notice_mails,
            placeholders,
        },
        None => {
            let template = AnnouncementText::default_template();
            AnnouncementView {
                download_id: id,
                announce: false,
                subject: template.subject.as_str().to_string(),
                text: template.text.as_str().to_string(),
                reminder_days: i64::from(ReminderDays::DEFAULT.get()),
                saved: false,
                recipients,
                announced_at: None,
                reminded_at: None,
                mails,
                end_notice_mails,
                placeholders,
            }
        }
    })
}

/// How the mails of package `id`'s `mail` stand; `None` when it was not queued.
async fn job_mails(
    db: &Db,
    id: i64,
    mail: PackageMail,
) -> ServiceResult<Option<AnnouncementMails>> {
    let Some(job) = mail_jobs::of_package(db, id, mail.kind()).await? else {
        return Ok(None);
    };
    let counts = mail_jobs::item_counts(db, job.id).await?;
    Ok(Some(AnnouncementMails {
        recipients: job.total,
        sent: counts.sent,
        failed: counts.failed,
        waiting: counts.pending + counts.sending,
        skipped: counts.skipped,
    }))
}

/// How the announcements of the packages `ids` stand, for the admin list: of every package for
/// the admin, of those of their providers for a moderator; packages not announced yet (or not
/// the user's) are left out. Three statements, whatever the number of packages.
pub async fn statuses(db: &Db, user: &User, ids: &[i64]) -> ServiceResult<Vec<AnnouncementStatus>> {
    let mut ids = ids.to_vec();
    if !user.is_admin() {
        let providers = db::marketing::providers::ids_for_roles(db, &user.roles).await?;
        let packages = db::catalog::packages::get_many(db, &ids).await?;
        ids.retain(|id| {
            packages
                .iter()
                .any(|p| p.id == *id && providers.contains(&p.provider_id))
        });
    }
    let queued = db::catalog::announcements::queued(db, &ids).await?;
    let jobs: Vec<i64> = queued.iter().map(|q| q.job_id).collect();
    let mut counts = mail_jobs::item_counts_of_jobs(db, &jobs).await?;
    Ok(queued
        .into_iter()
        .map(|q| {
            let c = counts.remove(&q.job_id).unwrap_or_default();
            AnnouncementStatus {
                download_id: q.download_id,
                announced_at: q.announced_at,
                mails: AnnouncementMails {
                    recipients: q.total,
                    sent: c.sent,
                    failed: c.failed,
                    waiting: c.pending + c.sending,
                    skipped: c.skipped,
                },
            }
        })
        .collect())
}
