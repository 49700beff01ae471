//! The contact sync from Brevo into the portal (issue 12, spec §2 "Sync manager", §7
//! `GET /api/syncContactsFromBrevo`): one direction, page by page.
//!
//! A run pages through Brevo's contacts changed since the start of the last completed run
//! (`modifiedSince`, oldest first), and for each contact with a customer number creates or
//! updates ours, its block, its confirmation and its memberships of the lists both sides know.
//! Each page is written in one transaction together with the run's progress, under a lease in
//! the database: one run at a time across instances; a run that crashed or failed resumes at its
//! next page with the next start. Writing a contact twice changes nothing (idempotent). Only one
//! page is in memory at a time.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::db::marketing::brevo_syncs::{
    Acquired, ContactSyncOutcome, SyncProgress, SyncRun, SyncedContact,
};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Entity, Entry};
use crate::domain::contacts::{CustomerNumber, Email, Salutation, clip_name};
use crate::integrations::brevo::{BrevoClient, BrevoContact, ContactRef, UpdateContact};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror::attribute;

/// How long a holder may go without finishing a page before another may take the run over.
pub const LEASE: Duration = Duration::seconds(120);
/// Taken off the last run's start, for clocks of Brevo and the portal that differ.
pub const OVERLAP: Duration = Duration::minutes(5);
/// Skipped contacts reported one by one per page (the rest only counted).
const SKIPS_REPORTED_PER_PAGE: usize = 50;

/// One object of the streamed answer; `result` says which.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[schema(as = SyncEvent)]
#[serde(tag = "result", rename_all = "camelCase")]
pub enum Event {
    #[serde(rename_all = "camelCase")]
    Start {
        message: String,
        modified_since: Option<DateTime<Utc>>,
        resumed: bool,
    },
    #[serde(rename_all = "camelCase")]
    Page {
        message: String,
        offset: i64,
        count: usize,
        total: i64,
        created: i64,
        updated: i64,
        unchanged: i64,
        skipped: i64,
    },
    #[serde(rename_all = "camelCase")]
    Skipped { message: String, email: String },
    #[serde(rename_all = "camelCase")]
    Done {
        message: String,
        created: i64,
        updated: i64,
        unchanged: i64,
        skipped: i64,
    },
    #[serde(rename_all = "camelCase")]
    Error { message: String },
}

/// A run this process holds.
pub struct Held {
    run: SyncRun,
    resumed: bool,
    owner: String,
    client: BrevoClient,
}

/// Takes the lease of a run: a new one, or the interrupted one. Refused while another runs
/// and in local mode.
pub async fn acquire(db: &Db, marketing: &Marketing) -> ServiceResult<Held> {
    let Marketing::Brevo(client) = marketing else {
        return Err(ServiceError::Conflict {
            code: "marketing_not_connected",
            message: "Es ist kein Marketing-Dienst (Brevo) angebunden; es gibt nichts zu \
                      synchronisieren."
                .into(),
        });
    };
    let owner = crate::domain::secret::new_token();
    let (acquired, run) =
        db::marketing::brevo_syncs::acquire(db, &owner, db::now(), LEASE, OVERLAP).await?;
    match (acquired, run) {
        (Acquired::Run(resumed), Some(run)) => Ok(Held {
            run,
            resumed,
            owner,
            client: client.clone(),
        }),
        _ => Err(ServiceError::Conflict {
            code: "sync_running",
            message: "Es läuft bereits eine Synchronisierung. Bitte warten Sie, bis sie \
                      abgeschlossen ist."
                .into(),
        }),
    }
}

fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Brevo's `DOUBLE_OPT-IN`: 1 (yes) in a category attribute, or a boolean or text.
fn confirmed(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_i64() == Some(1),
        Some(Value::String(s)) => matches!(
            s.trim().to_lowercase().as_str(),
            "1" | "yes" | "ja" | "true"
        ),
        _ => false,
    }
}

/// A Brevo contact as ours, or why it cannot be taken.
fn convert(
    contact: &BrevoContact,
    lists: &HashMap<i64, i64>,
) -> Result<SyncedContact, (String, String)> {
    let email_text = contact.email.clone().unwrap_or_default();
    let Ok(email) = Email::parse(&email_text) else {
        return Err((
            email_text.clone(),
            format!(
                "Brevo-Kontakt {} ohne gültige E-Mail übersprungen.",
                contact.id
            ),
        ));
    };
    let email = email.into_inner();
    let attrs = &contact.attributes;
    let number = text_of(attrs.get(attribute::CUSTOMER_NUMBER))
        .and_then(|n| CustomerNumber::parse_text(&n).ok());
    let Some(number) = number else {
        return Err((
            email.clone(),
            format!("{email}: ohne gültige Kundennummer (KUNDENNUMMER) übersprungen."),
        ));
    };
    let salutation = text_of(attrs.get(attribute::SALUTATION))
        .and_then(|s| Salutation::parse_text(&s).ok())
        .unwrap_or(Salutation::NONE);
    Ok(SyncedContact {
        brevo_id: contact.id,
        email,
        customer_number: number.get(),
        company_name: text_of(attrs.get(attribute::COMPANY)).map(|c| clip_name(&c)),
        salutation: salutation.code(),
        firstname: clip_name(&text_of(attrs.get(attribute::FIRSTNAME)).unwrap_or_default()),
        lastname: clip_name(&text_of(attrs.get(attribute::LASTNAME)).unwrap_or_default()),
        blacklisted: contact.email_blacklisted,
        double_opt_in: confirmed(attrs.get(attribute::DOUBLE_OPT_IN)),
        list_ids: contact
            .list_ids
            .iter()
            .filter_map(|id| lists.get(id).copied())
            .collect(),
    })
}

/// Tells Brevo that these contacts (Brevo ids), whose address changed, have not confirmed the
/// new one; what Brevo does not take now waits as a marketing retry.
async fn end_consent_in_brevo(
    db: &Db,
    client: &BrevoClient,
    synced: &[SyncedContact],
    ids: &[i64],
) {
    for id in ids {
        let mut attributes = serde_json::Map::new();
        attributes.insert(
            attribute::DOUBLE_OPT_IN.into(),
            crate::services::marketing::contact_mirror::double_opt_in_value(false),
        );
        let update = UpdateContact {
            attributes,
            ..UpdateContact::default()
        };
        if let Err(err) = client.update_contact(ContactRef::Id(*id), &update).await {
            let email = synced
                .iter()
                .find(|c| c.brevo_id == *id)
                .map_or("", |c| c.email.as_str());
            crate::services::marketing::contact_mirror::remember_update(
                db,
                email,
                Some(*id),
                &update,
                &err,
            )
            .await;
        }
    }
}

/// From this many contacts written, a sync is a bulk load: the planner's statistics are
/// refreshed after it.
const BULK_WRITES: i64 = 10_000;

/// Runs the held run to its end, reporting to `events` (a closed receiver does not stop the
/// run: it finishes in the background, and the next start sees its result).
pub async fn run(db: Db, held: Held, page_size: u32, events: mpsc::Sender<Event>) {
    let Held {
        run,
        resumed,
        owner,
        client,
    } = held;
    let send = |event: Event| {
        let events = events.clone();
        async move {
            let _ = events.send(event).await;
        }
    };
    let since = run
        .modified_since
        .map(|at| format!("geändert seit {}", at.format("%d.%m.%Y %H:%M:%S UTC")))
        .unwrap_or_else(|| "alle".into());
    send(Event::Start {
        message: if resumed {
            format!(
                "Unterbrochene Synchronisierung wird ab Kontakt {} fortgesetzt (Kontakte aus Brevo, {since}).",
                run.next_offset
            )
        } else {
            format!("Synchronisierung gestartet: Kontakte aus Brevo, {since}.")
        },
        modified_since: run.modified_since,
        resumed,
    })
    .await;
    match pages(&db, &client, &run, &owner, page_size, &send).await {
        Ok(progress) => {
            let finished = db::marketing::brevo_syncs::finish(&db, run.id, &owner, db::now()).await;
            match finished {
                Ok(true) => {
                    if progress.created + progress.updated >= BULK_WRITES {
                        // The lists' queries are planned from statistics taken before.
                        let db = db.clone();
                        tokio::spawn(async move {
                            if let Err(err) = db::bulk::analyze(&db).await {
                                tracing::warn!(error = %err, "statistics after the sync not refreshed");
                            }
                        });
                    }
                    send(Event::Done {
                        message: format!(
                            "Synchronisierung abgeschlossen: {} neu, {} geändert, {} unverändert, {} übersprungen.",
                            progress.created, progress.updated, progress.unchanged, progress.skipped
                        ),
                        created: progress.created,
                        updated: progress.updated,
                        unchanged: progress.unchanged,
                        skipped: progress.skipped,
                    })
                    .await
                }
                Ok(false) => send(lost()).await,
                Err(err) => send(failed(run.id, Stop::Database(err))).await,
            }
        }
        Err(Stop::LeaseLost) => send(lost()).await,
        Err(stop) => {
            let event = failed(run.id, stop);
            let _ = db::marketing::brevo_syncs::release(&db, run.id, &owner, db::now()).await;
            send(event).await;
        }
    }
}

/// Why a run stopped before its end.
enum Stop {
    Brevo(crate::integrations::brevo::BrevoError),
    Database(sqlx::Error),
    /// Another holder took the run over (its lease had run out).
    LeaseLost,
}

fn lost() -> Event {
    Event::Error {
        message: "Die Synchronisierung wurde von einer anderen Instanz übernommen.".into(),
    }
}

/// The German message of a stop; the cause's details go to the log only.
fn failed(id: i64, stop: Stop) -> Event {
    let cause = match &stop {
        Stop::Brevo(err) => {
            tracing::error!(run = id, error = %err, "contact sync from Brevo stopped");
            err.user_message()
        }
        Stop::Database(err) => {
            tracing::error!(run = id, error = %err, "contact sync from Brevo stopped");
            crate::services::error::DATABASE_UNAVAILABLE.to_string()
        }
        Stop::LeaseLost => return lost(),
    };
    Event::Error {
        message: format!(
            "Die Synchronisierung wurde unterbrochen: {cause} Ein erneuter Start setzt sie an \
             dieser Stelle fort."
        ),
    }
}

async fn pages<F, Fut>(
    db: &Db,
    client: &BrevoClient,
    run: &SyncRun,
    owner: &str,
    page_size: u32,
    send: &F,
) -> Result<SyncProgress, Stop>
where
    F: Fn(Event) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let lists: HashMap<i64, i64> = db::marketing::lists::brevo_ids(db)
        .await
        .map_err(Stop::Database)?
        .into_iter()
        .collect();
    let known: HashSet<i64> = lists.values().copied().collect();
    let mut progress = SyncProgress {
        next_offset: run.next_offset,
        created: run.created,
        updated: run.updated,
        unchanged: run.unchanged,
        skipped: run.skipped,
    };
    loop {
        // Brevo's offsets are 32-bit; a run that far is past any account's contacts.
        let offset = u32::try_from(progress.next_offset).unwrap_or(u32::MAX);
        let page = client
            .list_contacts(page_size, offset, run.modified_since)
            .await
            .map_err(Stop::Brevo)?;
        let mut synced = Vec::with_capacity(page.contacts.len());
        let mut skipped = Vec::new();
        for contact in &page.contacts {
            match convert(contact, &lists) {
                Ok(c) => synced.push(c),
                Err(skip) => skipped.push(skip),
            }
        }
        let audit = Entry::new(&Actor::System, Action::Sync, Entity::Sync, Some(run.id));
        let applied =
            db::marketing::brevo_syncs::apply_page(db, &synced, &known, db::now(), &audit)
                .await
                .map_err(Stop::Database)?;
        end_consent_in_brevo(db, client, &synced, &applied.consent_ended).await;
        for (contact, outcome) in synced.iter().zip(&applied.outcomes) {
            match outcome {
                ContactSyncOutcome::Created => progress.created += 1,
                ContactSyncOutcome::Updated => progress.updated += 1,
                ContactSyncOutcome::Unchanged => progress.unchanged += 1,
                ContactSyncOutcome::Skipped(why) => {
                    skipped.push((contact.email.clone(), why.clone()))
                }
            }
        }
        progress.skipped += skipped.len() as i64;
        progress.next_offset += page.contacts.len() as i64;
        let kept =
            db::marketing::brevo_syncs::advance(db, run.id, owner, progress, db::now(), LEASE)
                .await
                .map_err(Stop::Database)?;
        for (email, message) in skipped.iter().take(SKIPS_REPORTED_PER_PAGE) {
            send(Event::Skipped {
                message: message.clone(),
                email: email.clone(),
            })
            .await;
        }
        send(Event::Page {
            message: format!(
                "{} von {} Kontakten verarbeitet ({} neu, {} geändert, {} unverändert, {} übersprungen).",
                progress.next_offset, page.count, progress.created, progress.updated,
                progress.unchanged, progress.skipped
            ),
            offset: i64::from(offset),
            count: page.contacts.len(),
            total: page.count,
            created: progress.created,
            updated: progress.updated,
            unchanged: progress.unchanged,
            skipped: progress.skipped,
        })
        .await;
        if !kept {
            return Err(Stop::LeaseLost);
        }
        if page.contacts.len() < page_size as usize {
            return Ok(progress);
        }
    }
}
