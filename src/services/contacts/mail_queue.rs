//! The workers of the durable mail queue (`db::operations::mail_jobs`): every instance sends
//! the items of every running job, item by item at each job's pace, whatever the job's kind
//! (the double opt-in mail to the pending contacts, a package's announcement to the confirmed
//! contacts of its lists).
//!
//! A mail that failed for a passing reason (Brevo's 429 or 5xx after its own retries, an SMTP
//! 4xx, no answer) is tried again later, up to [`MOST_ATTEMPTS`] times, each wait twice the
//! one before; its item stays `pending` with the reason meanwhile. Any other failure ends the
//! item as `failed` with its reason.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use chrono::Duration;
use tokio::sync::Notify;

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

/// Sends the items of running jobs for the life of the server; every instance runs it, and
/// their workers share the jobs item by item at one pace for all mail (`per_second`), taking
/// the running jobs in turn. Woken by `wake` when a job starts, otherwise it looks every few
/// seconds.
pub async fn run_jobs(db: Db, mailer: Arc<Mailer>, settings: MailSettings, wake: Arc<Notify>) {
    let gap = Duration::microseconds(1_000_000 / i64::from(settings.per_second.max(1)));
    loop {
        match work_once(&db, &mailer, &settings, gap).await {
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
async fn work_once(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    gap: Duration,
) -> ServiceResult<bool> {
    let mut finished = false;
    // What a package's mails say is read once per job and round, not once per recipient.
    let mut open: Vec<OpenJob> = Vec::new();
    // Jobs with nothing to claim now (done, or only items waiting for a later attempt).
    let mut exhausted = std::collections::HashSet::new();
    loop {
        // A job started meanwhile joins the turns at once.
        for job in mail_jobs::running_all(db).await? {
            if !exhausted.contains(&job.id) && !open.iter().any(|o| o.job.id == job.id) {
                open.push(OpenJob {
                    job,
                    prepared: None,
                    place: JobPlace::default(),
                });
            }
        }
        if open.is_empty() {
            return Ok(finished);
        }
        let mut turn = 0;
        while turn < open.len() {
            let OpenJob {
                job,
                prepared,
                place,
            } = &mut open[turn];
            if send_next(db, mailer, settings, gap, job, prepared, place).await? {
                turn += 1;
                continue;
            }
            // Nothing left to claim. Other workers may still be sending their last items; the
            // last one to finish ends it.
            if mail_jobs::finish(db, job.id, db::now()).await? {
                tracing::info!(job = job.id, kind = %job.kind, "mail job done");
                finished = true;
            }
            exhausted.insert(job.id);
            open.remove(turn);
        }
    }
}

/// A running job in a worker's turns.
struct OpenJob {
    job: MailJob,
    prepared: Option<Option<Prepared>>,
    place: JobPlace,
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

/// Claims, sends and records the next item of `job`; `false` when there is none to claim now.
async fn send_next(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    gap: Duration,
    job: &MailJob,
    prepared: &mut Option<Option<Prepared>>,
    place: &mut JobPlace,
) -> ServiceResult<bool> {
    let Some(claim) = claim_at_place(db, job, gap, place).await? else {
        return Ok(false);
    };
    let sent = match claim.send_at {
        Some(send_at) => {
            if let Ok(wait) = (send_at - db::now()).to_std() {
                tokio::time::sleep(wait).await;
            }
            if job.download_id.is_some() && prepared.is_none() {
                *prepared = Some(package_mails::prepare(db, job, &settings.link_base).await?);
            }
            send(
                db,
                mailer,
                settings,
                job,
                prepared.as_ref(),
                claim.contact_id,
            )
            .await?
        }
        // No longer to be mailed since the job started: nothing to send.
        None => ItemSent::Skipped,
    };
    record(db, job, &claim, sent, settings).await?;
    Ok(true)
}

/// Sends a claimed item's mail as its job's kind says: a package's mail (`prepared` read for
/// its job), or the double opt-in mail.
async fn send(
    db: &Db,
    mailer: &Mailer,
    settings: &MailSettings,
    job: &MailJob,
    prepared: Option<&Option<Prepared>>,
    contact_id: i64,
) -> ServiceResult<ItemSent> {
    match (job.download_id, prepared) {
        (Some(_), Some(Some(ready))) => {
            package_mails::send_item(db, mailer, settings, job, ready, contact_id).await
        }
        // The package was archived or deleted, or its announcement switched off.
        (Some(_), _) => Ok(ItemSent::Skipped),
        (None, _) => double_opt_in::send_item(db, mailer, settings, job, contact_id).await,
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
