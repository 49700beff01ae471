//! Download statistics (issue 24): what each delivery counts, written off the request path.
//!
//! A delivery carries a [`Tally`] of the files in it. When its body ends (sent whole, or cut
//! off), the tally turns into one event per file and hands them to the [`Recorder`]: a
//! bounded channel that never blocks a download. When it is full, events are counted as
//! dropped and logged. One writer task per instance writes the events in batches, every
//! second or every 500 events, and keeps the roll-ups up to date in the same transaction.
//! A graceful stop flushes what is waiting.

pub mod export;
pub mod mail_figures;
pub mod mails;
pub mod ranking;
pub mod reports;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{mpsc, oneshot};

use crate::db::insight::statistics::{NewEvent, TotalsChange};
use crate::db::{self, Db};
use crate::domain::statistics::{Channel, DeliveryKind, Sketch, Span, file_share};
use crate::domain::time::berlin_date;
use crate::domain::user::User;

/// Events waiting for the writer at most; more are dropped (and counted).
const CHANNEL_CAPACITY: usize = 20_000;
/// A batch is written when it has this many events, or after `FLUSH_EVERY`.
const BATCH_SIZE: usize = 500;
const FLUSH_EVERY: Duration = Duration::from_secs(1);
/// A batch that could not be written is kept for the next try up to this size.
const MAX_PENDING: usize = 50_000;
/// How often the writer deletes the personal events past their days.
const EXPIRE_EVERY: Duration = Duration::from_secs(60 * 60);

#[derive(Debug)]
enum Message {
    Event(Box<NewEvent>),
    /// Write everything before this, then answer.
    Flush(oneshot::Sender<()>),
}

/// Hands download events to this instance's writer.
#[derive(Clone, Debug)]
pub struct Recorder {
    sender: mpsc::Sender<Message>,
    receiver: Arc<Mutex<Option<mpsc::Receiver<Message>>>>,
    dropped: Arc<AtomicU64>,
    /// Days the events naming a user or customer are kept.
    personal_days: u32,
    /// False (`AP_STATS_RECORDING=false`): deliveries record nothing.
    recording: bool,
}

impl Recorder {
    pub fn new(personal_days: u32) -> Recorder {
        let (sender, receiver) = mpsc::channel(CHANNEL_CAPACITY);
        Recorder {
            sender,
            receiver: Arc::new(Mutex::new(Some(receiver))),
            dropped: Arc::default(),
            personal_days,
            recording: true,
        }
    }

    pub fn from_config(config: &crate::config::Config) -> Recorder {
        Recorder {
            recording: config.stats_recording,
            ..Recorder::new(config.stats_personal_days)
        }
    }

    /// Events lost because the writer could not keep up, since the start.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Events waiting for the writer now.
    pub fn queued(&self) -> usize {
        self.sender.max_capacity() - self.sender.capacity()
    }

    fn record(&self, event: NewEvent) {
        if !self.recording {
            return;
        }
        if self
            .sender
            .try_send(Message::Event(Box::new(event)))
            .is_err()
        {
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            // Logged at 1, 2, 4, 8, …: a full channel must not flood the log as well.
            if dropped.is_power_of_two() {
                tracing::warn!(dropped, "download events dropped: the writer is behind");
            }
        }
    }

    /// The tally of a delivery to `user` over `channel` holding `files`.
    pub fn tally(&self, user: &User, channel: Channel, files: Vec<CountedFile>) -> Tally {
        Tally {
            recorder: self.clone(),
            at: Utc::now(),
            subject: Some(user.subject.clone()),
            customer_number: user.customer_number,
            channel,
            files,
            from_mail: Vec::new(),
        }
    }

    /// Starts this instance's writer (once; later calls do nothing).
    pub fn spawn_writer(&self, db: Db) {
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(receiver) = receiver {
            tokio::spawn(run_writer(
                db,
                receiver,
                self.personal_days,
                self.dropped.clone(),
            ));
        }
    }

    /// Waits until every event recorded before is written (a graceful stop; tests). Returns
    /// at once when no writer runs.
    pub async fn flush(&self) {
        let running = self
            .receiver
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none();
        if !running {
            return;
        }
        let (done, written) = oneshot::channel();
        if self.sender.send(Message::Flush(done)).await.is_ok() {
            let _ = written.await;
        }
    }
}

/// A file of a delivery: its package (and that package's provider) and where its bytes are
/// in the answer's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountedFile {
    pub package_id: i64,
    pub provider_id: i64,
    pub upload_id: i64,
    pub span: Span,
}

/// What a delivery will record when its body ends.
#[derive(Debug)]
pub struct Tally {
    recorder: Recorder,
    at: DateTime<Utc>,
    subject: Option<String>,
    customer_number: Option<i64>,
    channel: Channel,
    files: Vec<CountedFile>,
    /// The packages whose mail's link the user followed in this visit.
    from_mail: Vec<i64>,
}

impl Tally {
    /// Counts the files of `packages` (those whose mail's link the user followed in this
    /// visit) with the channel `mail`.
    pub fn followed_from_mail(mut self, packages: &[i64]) -> Tally {
        self.from_mail = packages.to_vec();
        self
    }

    /// The answer covered `requested` of the body and sent `sent` bytes of it: one event per
    /// file it touched.
    pub fn finish(self, requested: Span, sent: u64) {
        let day = berlin_date(self.at).format("%Y-%m-%d").to_string();
        for file in &self.files {
            let Some((kind, bytes, outcome)) = file_share(file.span, requested, sent) else {
                continue;
            };
            self.recorder.record(NewEvent {
                at: self.at,
                day: day.clone(),
                subject: self.subject.clone(),
                customer_number: self.customer_number,
                package_id: file.package_id,
                upload_id: file.upload_id,
                provider_id: file.provider_id,
                channel: if self.from_mail.contains(&file.package_id) {
                    Channel::Mail.as_str()
                } else {
                    self.channel.as_str()
                },
                kind: kind.as_str(),
                bytes_sent: bytes as i64,
                outcome: outcome.as_str(),
            });
        }
    }
}

/// The totals a batch adds: per day for the whole portal, each provider and each package.
pub fn totals_of(events: &[NewEvent]) -> Vec<TotalsChange> {
    let mut totals: BTreeMap<(&'static str, i64, &str), TotalsChange> = BTreeMap::new();
    for event in events {
        for (scope, id) in [
            ("all", 0),
            ("provider", event.provider_id),
            ("package", event.package_id),
        ] {
            let change = totals
                .entry((scope, id, event.day.as_str()))
                .or_insert_with(|| TotalsChange {
                    scope,
                    scope_id: id,
                    day: event.day.clone(),
                    downloads: 0,
                    zip_downloads: 0,
                    resumptions: 0,
                    bytes_sent: 0,
                    customers: Sketch::default(),
                });
            if event.kind == DeliveryKind::Download.as_str() {
                change.downloads += 1;
                if Channel::is_zip(event.channel) {
                    change.zip_downloads += 1;
                }
            } else {
                change.resumptions += 1;
            }
            change.bytes_sent += event.bytes_sent;
            if let Some(number) = event.customer_number {
                change.customers.add(number);
            }
        }
    }
    totals.into_values().collect()
}

async fn write(db: &Db, batch: &mut Vec<NewEvent>, dropped: &AtomicU64) {
    if batch.is_empty() {
        return;
    }
    let totals = totals_of(batch);
    match db::insight::statistics::write_batch(db, batch, &totals).await {
        Ok(()) => batch.clear(),
        Err(err) => {
            tracing::error!(error = %err, events = batch.len(), "download events not written; trying again");
            if batch.len() > MAX_PENDING {
                let lost = batch.len() - MAX_PENDING;
                batch.drain(..lost);
                dropped.fetch_add(lost as u64, Ordering::Relaxed);
                tracing::warn!(
                    lost,
                    "download events dropped: the database is away too long"
                );
            }
        }
    }
}

/// Writes the events of `receiver`; events it has to give up count into `dropped`, the
/// recorder's.
async fn run_writer(
    db: Db,
    mut receiver: mpsc::Receiver<Message>,
    personal_days: u32,
    dropped: Arc<AtomicU64>,
) {
    // A data set from before the month totals: they are made once from the daily ones.
    match db::insight::statistics::backfill_month_totals(&db).await {
        Ok(0) => {}
        Ok(written) => tracing::info!(written, "month totals of the download statistics made"),
        Err(err) => {
            tracing::warn!(error = %err, "month totals of the download statistics not made")
        }
    }
    let mut batch: Vec<NewEvent> = Vec::with_capacity(BATCH_SIZE);
    let mut flush = tokio::time::interval(FLUSH_EVERY);
    flush.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut expire = tokio::time::interval(EXPIRE_EVERY);
    expire.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            message = receiver.recv() => match message {
                Some(Message::Event(event)) => {
                    batch.push(*event);
                    if batch.len() >= BATCH_SIZE {
                        write(&db, &mut batch, &dropped).await;
                    }
                }
                Some(Message::Flush(done)) => {
                    write(&db, &mut batch, &dropped).await;
                    let _ = done.send(());
                }
                None => {
                    write(&db, &mut batch, &dropped).await;
                    return;
                }
            },
            _ = flush.tick() => write(&db, &mut batch, &dropped).await,
            _ = expire.tick() => expire_personal_events(&db, personal_days).await,
        }
    }
}

/// Deletes the events older than `personal_days` German days (the writer does so hourly).
pub async fn expire_personal_events(db: &Db, personal_days: u32) {
    let first_kept = berlin_date(Utc::now()) - chrono::Duration::days(i64::from(personal_days));
    let day = first_kept.format("%Y-%m-%d").to_string();
    match db::insight::statistics::delete_events_before(db, &day).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, before = %day, "personal download events expired"),
        Err(err) => tracing::warn!(error = %err, "personal download events not expired"),
    }
}

/// Forgets who took the packages that ended more than `takers_days` days ago, or no longer
/// exist (the daily sweep).
pub async fn expire_takers(db: &Db, takers_days: u32) {
    let ended_before = Utc::now() - chrono::Duration::days(i64::from(takers_days));
    match db::insight::statistics::takers::expire(db, ended_before).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "takers of ended packages forgotten"),
        Err(err) => tracing::warn!(error = %err, "takers of ended packages not forgotten"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(
        day: &str,
        customer: i64,
        package: i64,
        channel: Channel,
        kind: DeliveryKind,
    ) -> NewEvent {
        NewEvent {
            at: Utc::now(),
            day: day.into(),
            subject: Some(format!("local:{customer}")),
            customer_number: Some(customer),
            package_id: package,
            upload_id: 1,
            provider_id: 9,
            channel: channel.as_str(),
            kind: kind.as_str(),
            bytes_sent: 10,
            outcome: "complete",
        }
    }

    #[test]
    fn a_batch_adds_to_the_portal_its_providers_and_packages_per_day() {
        let events = [
            event("2026-11-24", 1, 5, Channel::File, DeliveryKind::Download),
            event(
                "2026-11-24",
                2,
                5,
                Channel::PackageZip,
                DeliveryKind::Download,
            ),
            event("2026-11-24", 2, 6, Channel::File, DeliveryKind::Resumption),
            event("2026-11-25", 1, 5, Channel::File, DeliveryKind::Download),
        ];
        let totals = totals_of(&events);
        let find = |scope: &str, id: i64, day: &str| {
            totals
                .iter()
                .find(|t| t.scope == scope && t.scope_id == id && t.day == day)
                .unwrap()
        };
        let all = find("all", 0, "2026-11-24");
        assert_eq!(
            (all.downloads, all.zip_downloads, all.resumptions),
            (2, 1, 1)
        );
        assert_eq!(all.customers.estimate(), 2);
        assert_eq!(find("package", 5, "2026-11-24").downloads, 2);
        assert_eq!(find("package", 6, "2026-11-24").resumptions, 1);
        assert_eq!(find("provider", 9, "2026-11-25").downloads, 1);
        assert_eq!(
            totals.len(),
            7,
            "four rows on the 24th (two packages), three on the 25th"
        );
    }
}
