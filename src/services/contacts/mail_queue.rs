//! The workers of the durable mail queue (`db::operations::mail_jobs`): every instance sends
//! the items of every running job, item by item at each job's pace, whatever the job's kind
//! (the double opt-in mail to the pending contacts, a package's announcement to the confirmed
//! contacts of its lists).
//!
//! A mail that failed for a passing reason (Brevo's 429 or 5xx after its own retries, an SMTP
//! 4xx, no answer) is tried again later, up to [`MOST_ATTEMPTS`] times, each wait twice the
//! one before; its item stays `pending` with the reason meanwhile. Any other failure ends the
//! item as `failed` with its reason.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use futures_util::FutureExt as _;
use tokio::sync::Notify;

use crate::db::contacts::Contact;
use crate::db::operations::mail_jobs::{self, Claim, ClaimFrom, ItemOutcome, MailJob};
use crate::db::{self, Db};
use crate::integrations::mail::Mailer;
use crate::services::contacts::double_opt_in;
use crate::services::contacts::mailing::{ItemSent, MailSettings};
use crate::services::contacts::package_mails::{self, Prepared};
use crate::services::error::ServiceResult;

/// How long an item may stay `sending` from its send slot on before it counts as its
/// worker's death and is claimed again. Far above one mail's 12-second deadline
/// (`integrations::mail`), so a slow but living worker is not doubled.
const STALE_CLAIM: Duration = Duration::seconds(30);

/// How often a worker looks for items held by a dead worker while it sends a job; on
/// PostgreSQL that seek steps over an index entry for each item sent since the last vacuum.
const STALE_CHECK: Duration = Duration::seconds(10);

/// An item is tried at most this often when its failures pass.
pub const MOST_ATTEMPTS: i32 = 5;

/// How old the reading of a contact may be when its mail goes without reading it again.
const CONTACT_FRESH: StdDuration = StdDuration::from_millis(500);

/// How often a worker looks for jobs started meanwhile while it sends (on other instances; a
/// job started on its own instance wakes it at once). Once per mail was a round trip to the
/// database per mail (issue 37).
const JOBS_LOOK: StdDuration = StdDuration::from_secs(1);

/// Sends the items of running jobs for the life of the server; every instance runs it, and
/// their workers share the jobs item by item at one pace for all mail (`per_second`), taking
/// the running jobs in turn. Woken by `wake` when a job starts, otherwise it looks every few
/// seconds.
pub async fn run_jobs(db: Db, mailer: Arc<Mailer>, settings: MailSettings, wake: Arc<Notify>) {
    let gap = Duration::microseconds(1_000_000 / i64::from(settings.per_second.max(1)));
    loop {
        match work_once(&db, &mailer, &settings, gap, &wake).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(err) => tracing::error!(error = %err, "mail job round failed"),
        }
        let _ = tokio::time::timeout(StdDuration::from_secs(5), wake.notified()).await;
    }
}

/// One round: sends the items of the running jobs that can be claimed now, one job's item
/// after the other's in turn (so a large announcement does not hold back a job started after
/// it), `gap` apart for all of them. `true` when this round finished a job (there may be a
/// next one).
///
/// A pipeline of three steps, each a round trip to the database, run side by side: while an
/// item is sent and recorded, the one after it has its contact read and its unsubscribe link
/// stored, and the one after that is claimed. On PostgreSQL under load every statement waits
/// for a busy server, and one after the other they held the pace to a third, two in turn to a
/// half (issue 37). Still only one mail is in flight: an item is sent only once the one
/// before it is recorded, so a killed worker leaves at most one mail sent and not recorded.
async fn work_once(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    gap: Duration,
    wake: &Notify,
) -> ServiceResult<bool> {
    let mut finished = false;
    let mut open: Vec<OpenJob> = Vec::new();
    // Jobs with nothing to claim now (done, or only items waiting for a later attempt).
    let mut exhausted = HashSet::new();
    let mut looked: Option<Instant> = None;
    // Claimed, to be read; read, to be delivered.
    let mut claimed: Option<Pending> = None;
    let mut in_hand: Option<Claimed> = None;
    let mut turn = 0;
    loop {
        // A job started meanwhile joins the turns.
        let started_here = wake.notified().now_or_never().is_some();
        if open.is_empty() || started_here || looked.is_none_or(|at| at.elapsed() >= JOBS_LOOK) {
            looked = Some(Instant::now());
            for job in mail_jobs::running_all(db).await? {
                if !exhausted.contains(&job.id) && !open.iter().any(|o| o.job.id == job.id) {
                    open.push(OpenJob::new(job));
                }
            }
        }
        // Empty only after a job ran out, when the pipeline was emptied.
        if open.is_empty() {
            return Ok(finished);
        }
        turn %= open.len();
        let claiming = claim_for(db, settings, gap, &mut open[turn]);
        let reading = async {
            match claimed.take() {
                Some(pending) => read_for(db, pending).await.map(Some),
                None => Ok(None),
            }
        };
        let delivering = async {
            match in_hand.take() {
                Some(item) => deliver(db, mailer, settings, item).await,
                None => Ok(()),
            }
        };
        // On an error the items claimed ahead are claimed again once stale (30 s).
        let (delivered, read, next) = tokio::join!(delivering, reading, claiming);
        delivered?;
        in_hand = read?;
        if let Some(next) = next? {
            claimed = Some(next);
            turn += 1;
            continue;
        }
        // Nothing left to claim. Other workers may still be sending their last items; the
        // last one to finish ends it, so this worker's own go first.
        if let Some(item) = in_hand.take() {
            deliver(db, mailer, settings, item).await?;
        }
        let job = open.remove(turn).job;
        if mail_jobs::finish(db, job.id, db::now()).await? {
            tracing::info!(job = job.id, kind = %job.kind, "mail job done");
            finished = true;
        }
        exhausted.insert(job.id);
    }
}

/// A running job in a worker's turns.
struct OpenJob {
    job: MailJob,
    /// What a package's mails say, read once per job and round, not once per recipient.
    prepared: Option<Arc<Option<Prepared>>>,
    place: JobPlace,
}

impl OpenJob {
    fn new(job: MailJob) -> OpenJob {
        OpenJob {
            job,
            prepared: None,
            place: JobPlace::default(),
        }
    }
}

/// An item claimed by this worker, what its mail needs not read yet.
struct Pending {
    job: MailJob,
    claim: Claim,
    /// What the package's mails say (package jobs with a send slot only).
    prepared: Option<Arc<Option<Prepared>>>,
}

/// An item claimed by this worker with what its mail needs, its mail not yet sent.
struct Claimed {
    job: MailJob,
    claim: Claim,
    /// The contact as it was when read; `None` when it is not to be mailed (no send slot,
    /// or deleted meanwhile).
    contact: Option<Contact>,
    /// When `contact` was read.
    read_at: Instant,
    /// What the package's mails say (package jobs only).
    prepared: Option<Arc<Option<Prepared>>>,
    /// The token of the package mail's unsubscribe link, stored already.
    link: Option<String>,
}

/// A worker's place in a job. Items never tried are claimed in contact order, so the next one
/// is sought after the last claim: on PostgreSQL a seek from the first contact would step over
/// the index entry of every item sent since the last vacuum. Items behind the place (queued
/// again, or claimed by another instance's worker and put back) are found when the pass ends:
/// only a seek from the first contact that finds nothing, dead workers' items included, calls
/// the job exhausted.
#[derive(Default)]
struct JobPlace {
    after_contact: i64,
    stale_checked: Option<chrono::DateTime<chrono::Utc>>,
}

/// Claims the next item of `job` from `place` on, and moves the place.
async fn claim_at_place(
    db: &Db,
    job: &MailJob,
    gap: Duration,
    place: &mut JobPlace,
) -> ServiceResult<Option<Claim>> {
    let now = db::now();
    let check_stale = place
        .stale_checked
        .is_none_or(|checked| now - checked >= STALE_CHECK);
    let from = ClaimFrom {
        after_contact: place.after_contact,
        stale_before: check_stale.then(|| now - STALE_CLAIM),
    };
    if check_stale {
        place.stale_checked = Some(now);
    }
    if let Some(claim) = mail_jobs::claim_next(db, job, now, from, gap).await? {
        place.after_contact = place.after_contact.max(claim.contact_id);
        return Ok(Some(claim));
    }
    let whole = ClaimFrom {
        after_contact: 0,
        stale_before: Some(now - STALE_CLAIM),
    };
    if from == whole {
        return Ok(None);
    }
    // The end of a pass: once more from the first contact.
    place.stale_checked = Some(now);
    let claim = mail_jobs::claim_next(db, job, now, whole, gap).await?;
    place.after_contact = claim.map_or(0, |claim| claim.contact_id);
    Ok(claim)
}

/// Claims the next item of `open`'s job; `None` when there is none to claim now.
async fn claim_for(
    db: &Db,
    settings: &MailSettings,
    gap: Duration,
    open: &mut OpenJob,
) -> ServiceResult<Option<Pending>> {
    let Some(claim) = claim_at_place(db, &open.job, gap, &mut open.place).await? else {
        return Ok(None);
    };
    let mut prepared = None;
    // No send slot: no longer to be mailed since the job started, nothing to prepare.
    if claim.send_at.is_some() && open.job.download_id.is_some() {
        if open.prepared.is_none() {
            let ready = package_mails::prepare(db, &open.job, &settings.link_base).await?;
            open.prepared = Some(Arc::new(ready));
        }
        prepared = open.prepared.clone();
    }
    Ok(Some(Pending {
        job: open.job.clone(),
        claim,
        prepared,
    }))
}

/// Reads what a claimed item's mail needs: its contact and, for a package's mail, a stored
/// unsubscribe link (both at once).
async fn read_for(db: &Db, pending: Pending) -> ServiceResult<Claimed> {
    let Pending {
        job,
        claim,
        prepared,
    } = pending;
    let (contact, link) = match (claim.send_at, prepared.as_deref()) {
        // No send slot: nothing to read.
        (None, _) => (None, None),
        (Some(_), Some(Some(ready))) => {
            let (contact, link) = tokio::join!(
                db::contacts::get_contact(db, claim.contact_id),
                package_mails::store_link(db, ready, claim.contact_id)
            );
            (contact?, link?)
        }
        (Some(_), _) => (db::contacts::get_contact(db, claim.contact_id).await?, None),
    };
    Ok(Claimed {
        job,
        claim,
        contact,
        read_at: Instant::now(),
        prepared,
        link,
    })
}

/// Sends a claimed item's mail in its send slot and records how it went.
///
/// The contact is read again before the mail goes when the worker waited for the slot (it
/// has the time) or the reading is older than [`CONTACT_FRESH`] (a slow mail server), so a
/// contact blocked or unconfirmed meanwhile is not mailed. When the worker is behind the pace,
/// the reading is one mail old.
async fn deliver(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    item: Claimed,
) -> ServiceResult<()> {
    let sent = match (item.claim.send_at, item.contact) {
        (Some(send_at), Some(contact)) => {
            let waited = match (send_at - db::now()).to_std() {
                Ok(wait) if !wait.is_zero() => {
                    tokio::time::sleep(wait).await;
                    true
                }
                _ => false,
            };
            let contact = if waited || item.read_at.elapsed() > CONTACT_FRESH {
                db::contacts::get_contact(db, contact.id).await?
            } else {
                Some(contact)
            };
            match contact {
                Some(contact) => {
                    let prepared = item.prepared.as_deref();
                    let link = item.link.as_deref();
                    send(db, mailer, settings, &item.job, prepared, &contact, link).await?
                }
                // Deleted meanwhile (its link went with it).
                None => ItemSent::Skipped,
            }
        }
        // No longer to be mailed since the job started, or deleted: nothing to send.
        _ => ItemSent::Skipped,
    };
    record(db, &item.job, &item.claim, sent, settings).await
}

/// Sends a claimed item's mail as its job's kind says: a package's mail (`prepared` read for
/// its job, with its stored unsubscribe link `link`), or the double opt-in mail.
async fn send(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    job: &MailJob,
    prepared: Option<&Option<Prepared>>,
    contact: &Contact,
    link: Option<&str>,
) -> ServiceResult<ItemSent> {
    match (job.download_id, prepared, link) {
        (Some(_), Some(Some(ready)), Some(link)) => {
            package_mails::send_item(db, mailer, settings, job, ready, contact, link).await
        }
        // The package was archived or deleted, or its announcement switched off (no link was
        // stored then); or the contact was deleted while its link was stored.
        (Some(_), _, _) => Ok(ItemSent::Skipped),
        (None, _, _) => double_opt_in::send_item(db, mailer, settings, job, contact).await,
    }
}

/// Records how claim `claim` went: a passing failure waits for its next attempt while any is
/// left.
async fn record(
    db: &Db,
    job: &MailJob,
    claim: &Claim,
    sent: ItemSent,
    settings: &MailSettings,
) -> ServiceResult<()> {
    let now = db::now();
    let recorded = match sent {
        ItemSent::Passing(error) if claim.attempt < MOST_ATTEMPTS => {
            let wait = settings.retry_after * 2_i32.pow(claim.attempt.clamp(1, 10) as u32 - 1);
            tracing::warn!(job = job.id, contact = claim.contact_id, attempt = claim.attempt, %error, "mail to be tried again");
            mail_jobs::retry_item(db, job.id, claim, &error, now + wait, now).await?
        }
        sent => {
            let (outcome, message_id, error) = match sent {
                ItemSent::Sent(id) => (ItemOutcome::Sent, Some(id), None),
                ItemSent::Skipped => (ItemOutcome::Skipped, None, None),
                ItemSent::Failed(error) | ItemSent::Passing(error) => {
                    (ItemOutcome::Failed, None, Some(error))
                }
            };
            mail_jobs::finish_item(
                db,
                job.id,
                claim,
                outcome,
                message_id.as_deref(),
                error.as_deref(),
                now,
            )
            .await?
        }
    };
    if !recorded {
        // Taken for dead and claimed again meanwhile: the newer claim records the item.
        tracing::warn!(
            job = job.id,
            contact = claim.contact_id,
            "mail job item was claimed again before its outcome was recorded"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{TestDb, cli_change};

    #[tokio::test]
    async fn a_contact_blocked_after_its_claim_while_its_slot_is_awaited_is_not_mailed() {
        let t = TestDb::new().await;
        let first = t.contact(0, false, false).await;
        let second = t.contact(1, false, false).await;
        let (job, _) = mail_jobs::start_double_opt_in(&t.db, "admin", db::now(), &cli_change())
            .await
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mailer = Mailer::outbox(
            dir.path().to_path_buf(),
            "Aktionsportal <portal@example.de>".parse().unwrap(),
        );
        let settings = MailSettings::from_config(&crate::config::Config::default());
        // 300 ms apart: the second item's slot lies ahead when it is claimed.
        let gap = Duration::milliseconds(300);
        let mut open = OpenJob::new(job.clone());
        let mut claim_and_read = async || {
            let pending = claim_for(&t.db, &settings, gap, &mut open).await.unwrap();
            read_for(&t.db, pending.unwrap()).await.unwrap()
        };
        let one = claim_and_read().await;
        let two = claim_and_read().await;
        assert_eq!(
            (one.claim.contact_id, two.claim.contact_id),
            (first, second)
        );
        assert!(two.contact.as_ref().is_some_and(|c| !c.email_blacklisted));
        // Blocked after the claim read it, before its slot.
        db::contacts::set_blacklisted(&t.db, second, true, &cli_change())
            .await
            .unwrap();
        deliver(&t.db, &mailer, &settings, one).await.unwrap();
        deliver(&t.db, &mailer, &settings, two).await.unwrap();
        let counts = mail_jobs::item_counts(&t.db, job.id).await.unwrap();
        assert_eq!((counts.sent, counts.skipped), (1, 1), "{counts:?}");
        assert_eq!(
            mailer.outbox_mails_to("k0@example.de").await.unwrap().len(),
            1
        );
        assert!(
            mailer
                .outbox_mails_to("k1@example.de")
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn a_worker_finds_the_items_behind_its_place_when_its_pass_ends() {
        let t = TestDb::new().await;
        let mut ids = Vec::new();
        for i in 0..3 {
            ids.push(t.contact(i, false, false).await);
        }
        let (job, _) = mail_jobs::start_double_opt_in(&t.db, "admin", db::now(), &cli_change())
            .await
            .unwrap();
        // As if this worker had come past the first two already while they were still (or
        // again) open: another instance's worker put them back, or they were queued anew.
        let mut place = JobPlace {
            after_contact: ids[1],
            stale_checked: Some(db::now()),
        };
        let gap = Duration::milliseconds(1);
        let mut claimed = Vec::new();
        while let Some(claim) = claim_at_place(&t.db, &job, gap, &mut place).await.unwrap() {
            claimed.push(claim.contact_id);
            assert!(claimed.len() <= 3, "{claimed:?}");
        }
        assert_eq!(
            claimed,
            [ids[2], ids[0], ids[1]],
            "each once, the rest at the pass's end"
        );
    }
}
