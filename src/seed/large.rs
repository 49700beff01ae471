//! The large benchmark data set (`seed-large`): hundreds of providers, tens of thousands of
//! download packages, a hundred thousand stored files and hundreds of thousands of contacts,
//! created in about a minute on SQLite or PostgreSQL (measured: 43 s and 17 s on 2 cores).
//!
//! Speed comes from multi-row `INSERT` statements (up to [`crate::db::tx::ROWS_PER_STATEMENT`] rows each,
//! written once with `$1, $2, …` placeholders for both databases) inside one transaction, and
//! from writing the small files straight into the file store's key paths on every core,
//! without a staging rename or an fsync per file (benchmark data, not customer uploads). The
//! files are written before the transaction; when it fails they are removed again, so either
//! everything exists or nothing does. Every `uploads` row has its own storage key and the
//! size, SHA-256 and CRC-32 of its bytes.
//!
//! The data is random but reproducible (a fixed seed), with the real small sample PDFs and PNGs
//! of [`super::samples`] and generated texts.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::samples::{Banner, FLYER_PDF, PRICE_LIST_PDF};
use crate::db::sql::Param;
use crate::db::tx::{Tx, insert_sql};
use crate::db::{self, Db};
use crate::domain::roles;
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};
use crate::services::accounts;
use crate::storage::{FileStore, is_valid_key};

/// The first customer number of the generated companies; the dealer account gets this one.
pub const FIRST_CUSTOMER_NUMBER: i64 = 200_000;
/// The login of the admin account the benchmarks sign in with.
pub const BENCH_ADMIN: &str = "bench-admin";
/// The login of the dealer account (role GS-Aktionsportal) the benchmarks sign in with.
pub const BENCH_DEALER: &str = "bench-haendler";

/// How much data to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargeDataSize {
    pub providers: usize,
    /// Every tenth list of a provider (index 9, 19, …) is inactive.
    pub lists_per_provider: usize,
    pub packages_per_provider: usize,
    pub files_per_package: usize,
    pub companies: usize,
    pub contacts: usize,
    /// How many lists the contacts of the dealer's company are on (spread over providers).
    pub dealer_lists: usize,
}

impl LargeDataSize {
    /// The benchmark size: 200 providers, 2,000 lists, 20,000 packages, 100,000 files,
    /// 50,000 companies with 200,000 contacts; the dealer's contacts are on 30 lists.
    pub fn full() -> LargeDataSize {
        LargeDataSize {
            providers: 200,
            lists_per_provider: 10,
            packages_per_provider: 100,
            files_per_package: 5,
            companies: 50_000,
            contacts: 200_000,
            dealer_lists: 30,
        }
    }

    /// A few rows of everything, for tests.
    pub fn tiny() -> LargeDataSize {
        LargeDataSize {
            providers: 3,
            lists_per_provider: 10,
            packages_per_provider: 6,
            files_per_package: 5,
            companies: 10,
            contacts: 30,
            dealer_lists: 5,
        }
    }

    fn active_lists_per_provider(&self) -> usize {
        (0..self.lists_per_provider)
            .filter(|&k| is_active_list(k))
            .count()
    }

    fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.providers > 0
                && self.active_lists_per_provider() > 0
                && self.packages_per_provider > 0
                && self.files_per_package > 0
                && self.companies > 0
                && self.contacts >= self.companies,
            "Ungültige Größe des Datensatzes: {self:?}"
        );
        anyhow::ensure!(
            self.dealer_lists <= self.providers * self.active_lists_per_provider()
                && self.dealer_lists.div_ceil(self.providers) <= self.active_lists_per_provider(),
            "Der Händler kann nicht auf {} Kriterien stehen.",
            self.dealer_lists
        );
        Ok(())
    }
}

fn is_active_list(k: usize) -> bool {
    k % 10 != 9
}

/// What [`seed_large`] created.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LargeDataSummary {
    pub providers: u64,
    pub provider_roles: u64,
    pub lists: u64,
    pub tags: u64,
    pub downloads: u64,
    pub archived: u64,
    pub uploads: u64,
    /// Total size of the files written.
    pub bytes: u64,
    pub download_uploads: u64,
    pub file_tags: u64,
    pub download_lists: u64,
    pub companies: u64,
    pub contacts: u64,
    pub contact_lists: u64,
    /// The customer number whose contacts are on [`LargeDataSummary::dealer_lists`] lists.
    pub dealer_customer_number: i64,
    pub dealer_lists: u64,
    /// Milliseconds the whole run took.
    pub elapsed_ms: u64,
}

/// A number the German way: `200.000`.
fn de(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for LargeDataSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = format!("{:.1}", self.elapsed_ms as f64 / 1000.0).replace('.', ",");
        let mib = format!("{:.1}", self.bytes as f64 / (1024.0 * 1024.0)).replace('.', ",");
        writeln!(f, "Großer Datensatz angelegt in {seconds} s:")?;
        writeln!(
            f,
            "  {} Anbieter ({} Rollen), {} Kriterien, {} Tags",
            de(self.providers),
            de(self.provider_roles),
            de(self.lists),
            de(self.tags)
        )?;
        writeln!(
            f,
            "  {} Downloads ({} archiviert) mit {} Kriterien-Zuordnungen",
            de(self.downloads),
            de(self.archived),
            de(self.download_lists)
        )?;
        writeln!(
            f,
            "  {} Dateien ({mib} MiB) in {} Paket-Einträgen, {} davon mit Tags",
            de(self.uploads),
            de(self.download_uploads),
            de(self.file_tags)
        )?;
        writeln!(
            f,
            "  {} Firmen (Kundennummern ab {}), {} Kontakte mit {} Kriterien-Zuordnungen",
            de(self.companies),
            FIRST_CUSTOMER_NUMBER,
            de(self.contacts),
            de(self.contact_lists)
        )?;
        write!(
            f,
            "  Händler-Kundennummer {}: Kontakte auf {} Kriterien",
            self.dealer_customer_number, self.dealer_lists
        )
    }
}

/// Maps the returned `(id, key)` pairs to ids in the order of `keys`.
fn ids_in_order(
    keys: &[String],
    returned: Vec<(i64, String)>,
    what: &str,
) -> anyhow::Result<Vec<i64>> {
    let by_key: HashMap<String, i64> = returned.into_iter().map(|(id, key)| (key, id)).collect();
    keys.iter()
        .map(|key| {
            by_key
                .get(key)
                .copied()
                .ok_or_else(|| anyhow::anyhow!("{what} „{key}“ wurde nicht angelegt"))
        })
        .collect()
}

const SECTORS: &[&str] = &[
    "Energie",
    "Glasfaser",
    "Mobilfunk",
    "Stadtwerke",
    "Wärme",
    "Solar",
    "Kabel-TV",
    "E-Mobilität",
];

const AUDIENCES: &[&str] = &[
    "Privatkunden",
    "Gewerbekunden",
    "Neukunden",
    "Bestandskunden",
    "Vorvermarktung",
    "Premiumpartner",
    "Landkreis Nord",
    "Landkreis Süd",
    "Studierende",
    "Altkunden",
];

const CAMPAIGNS: &[&str] = &[
    "Sommeraktion",
    "Wechselbonus",
    "Neukundenaktion",
    "Herbstkampagne",
    "Treueprämie",
    "Ausbau-Offensive",
    "Tarifwechsel",
    "Winteraktion",
    "Frühjahrsangebot",
    "Messepaket",
    "Jubiläumsaktion",
    "Weihnachtsaktion",
];

const FIRSTNAMES: &[&str] = &[
    "Anna",
    "Thomas",
    "Sabine",
    "Jürgen",
    "Petra",
    "Lukas",
    "Mia",
    "Jonas",
    "Lea",
    "Felix",
    "Sophie",
    "Maximilian",
    "Hannah",
    "Paul",
    "Emma",
    "Leon",
    "Marie",
    "Tim",
    "Laura",
    "Jan",
];

const LASTNAMES: &[&str] = &[
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
    "Schäfer",
    "Koch",
    "Bauer",
    "Richter",
    "Klein",
    "Wolf",
    "Schröder",
    "Neumann",
    "Schwarz",
    "Zimmermann",
];

const LEGAL_FORMS: &[&str] = &["GmbH", "KG", "e.K.", "GbR", "AG", "OHG", "UG"];

/// (name, icon)
const TAGS: &[(&str, &str)] = &[
    ("Flyer", "bi bi-file-earmark-pdf"),
    ("Plakat", "bi bi-image"),
    ("Social Media", "bi bi-share"),
    ("Preisliste", "bi bi-currency-euro"),
    ("Video", "bi bi-camera-video"),
];
const TAG_FLYER: usize = 0;
const TAG_PLAKAT: usize = 1;
const TAG_SOCIAL: usize = 2;
const TAG_PRICES: usize = 3;

/// A package as planned before anything is written.
struct PackagePlan {
    provider: usize,
    name: String,
    start_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    archived_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    /// Indexes of the provider's lists (0..lists_per_provider).
    lists: Vec<usize>,
}

/// A file written to the store, waiting for its row.
struct WrittenFile {
    name: String,
    ext: &'static str,
    content_type: &'static str,
    key: String,
    size: i64,
    sha256: String,
    crc32: i64,
    tags: Vec<usize>,
}

fn provider_name(p: usize) -> String {
    format!("Marke {:03} {}", p + 1, SECTORS[p % SECTORS.len()])
}

fn provider_roles(p: usize) -> Vec<String> {
    let mut roles = vec![format!("GS-Aktionsportal-BU-Marke-{}", p + 1)];
    // Every other provider shares a second role with a few others (a regional team).
    if p % 2 == 1 {
        roles.push(format!("GS-Aktionsportal-BU-Region-{}", p % 20 + 1));
    }
    roles
}

fn list_name(p: usize, k: usize) -> String {
    let audience = AUDIENCES[k % AUDIENCES.len()];
    if k < AUDIENCES.len() {
        format!("{audience} Marke {:03}", p + 1)
    } else {
        format!("{audience} {} Marke {:03}", k / AUDIENCES.len() + 1, p + 1)
    }
}

fn random_key(ext: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}/{hex}.{ext}", &hex[..2])
}

/// The bytes of file `f` of package `g`: (name, ext, content type, tags, bytes).
fn file_content(
    g: usize,
    f: usize,
    package: &PackagePlan,
    rng: &mut StdRng,
) -> (String, &'static str, &'static str, Vec<usize>, Vec<u8>) {
    let suffix = if f < 5 {
        String::new()
    } else {
        format!(" {}", f + 1)
    };
    // Two banner colours per provider: one for the banner, one for the social media picture.
    let banner = Banner::ALL[package.provider % Banner::ALL.len()].png();
    let social = Banner::ALL[(package.provider + 1) % Banner::ALL.len()].png();
    let number = format!("Paket-Nr. {:05}, Datei {}", g + 1, f + 1);
    match f % 5 {
        0 => {
            let tags = if rng.gen_bool(0.6) {
                vec![TAG_FLYER]
            } else {
                vec![]
            };
            (
                format!("Flyer {}{suffix}.pdf", package.name),
                "pdf",
                "application/pdf",
                tags,
                FLYER_PDF.to_vec(),
            )
        }
        1 => {
            let tags = if rng.gen_bool(0.5) {
                vec![TAG_PLAKAT]
            } else {
                vec![]
            };
            (
                format!("Banner {}{suffix}.png", package.name),
                "png",
                "image/png",
                tags,
                banner.to_vec(),
            )
        }
        2 => {
            let tags = if rng.gen_bool(0.5) {
                vec![TAG_PRICES]
            } else {
                vec![]
            };
            (
                format!("Preisübersicht {}{suffix}.pdf", package.name),
                "pdf",
                "application/pdf",
                tags,
                PRICE_LIST_PDF.to_vec(),
            )
        }
        3 => {
            let text = format!(
                "Hinweise zum Paket „{}“\n\n- Die Unterlagen nur im Aktionszeitraum verwenden.\n\
                 - Bitte keine eigenen Preise ergänzen.\n- {number}\n",
                package.name
            );
            (
                format!("Hinweise {}{suffix}.txt", package.name),
                "txt",
                "text/plain; charset=utf-8",
                vec![],
                text.into_bytes(),
            )
        }
        _ => {
            let tags = if rng.gen_bool(0.3) {
                vec![TAG_SOCIAL, TAG_PLAKAT]
            } else {
                vec![]
            };
            (
                format!("Social Media {}{suffix}.png", package.name),
                "png",
                "image/png",
                tags,
                social.to_vec(),
            )
        }
    }
}

/// Writes the files of `packages` into the store on every core; returns them in package
/// order (`files_per_package` per package). On failure the files written are removed.
fn write_files(
    root: PathBuf,
    packages: &[PackagePlan],
    files_per_package: usize,
) -> anyhow::Result<Vec<WrittenFile>> {
    for shard in 0..=255u8 {
        std::fs::create_dir_all(root.join(format!("{shard:02x}")))?;
    }
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let per_thread = packages.len().div_ceil(threads).max(1);
    let results: Vec<std::io::Result<Vec<WrittenFile>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = packages
            .chunks(per_thread)
            .enumerate()
            .map(|(chunk_index, chunk)| {
                let root = &root;
                scope.spawn(move || {
                    let mut rng = StdRng::seed_from_u64(1_000 + chunk_index as u64);
                    let mut out = Vec::with_capacity(chunk.len() * files_per_package);
                    for (i, package) in chunk.iter().enumerate() {
                        let g = chunk_index * per_thread + i;
                        for f in 0..files_per_package {
                            let (name, ext, content_type, tags, bytes) =
                                file_content(g, f, package, &mut rng);
                            let key = random_key(ext);
                            debug_assert!(is_valid_key(&key));
                            let result = std::fs::OpenOptions::new()
                                .write(true)
                                .create_new(true)
                                .open(root.join(&key))
                                .and_then(|mut file| file.write_all(&bytes));
                            if let Err(err) = result {
                                remove_written(root, &out);
                                return Err(err);
                            }
                            out.push(WrittenFile {
                                name,
                                ext,
                                content_type,
                                key,
                                size: bytes.len() as i64,
                                sha256: Sha256::digest(&bytes)
                                    .iter()
                                    .map(|b| format!("{b:02x}"))
                                    .collect(),
                                crc32: i64::from(crc32fast::hash(&bytes)),
                                tags,
                            });
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("writer panicked")))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(packages.len() * files_per_package);
    let mut failure = None;
    for result in results {
        match result {
            Ok(files) => all.extend(files),
            Err(err) => failure = Some(err),
        }
    }
    if let Some(err) = failure {
        remove_written(&root, &all);
        return Err(anyhow::Error::from(err).context("Dateien konnten nicht geschrieben werden"));
    }
    Ok(all)
}

fn remove_written(root: &std::path::Path, files: &[WrittenFile]) {
    for file in files {
        let _ = std::fs::remove_file(root.join(&file.key));
    }
}

/// Plans the packages: dates spread over past (about 40 %), current (40 %) and upcoming
/// (20 %) periods, about 10 % archived, 1–3 active lists of the provider each.
fn plan_packages(size: &LargeDataSize, now: DateTime<Utc>, rng: &mut StdRng) -> Vec<PackagePlan> {
    let today = berlin_date(now);
    let active: Vec<usize> = (0..size.lists_per_provider)
        .filter(|&k| is_active_list(k))
        .collect();
    let mut packages = Vec::with_capacity(size.providers * size.packages_per_provider);
    for p in 0..size.providers {
        for k in 0..size.packages_per_provider {
            let g = packages.len();
            let kind: f64 = rng.r#gen();
            let (start_day, end_day) = if kind < 0.4 {
                let start = rng.gen_range(-400..-60);
                (start, start + rng.gen_range(10..50))
            } else if kind < 0.8 {
                (rng.gen_range(-60..=0), rng.gen_range(1..=90))
            } else {
                let start = rng.gen_range(2..=120);
                (start, start + rng.gen_range(10..=60))
            };
            let start_at = berlin_start_of_day(today + Duration::days(start_day));
            let end_at = berlin_end_of_day(today + Duration::days(end_day));
            let created_at =
                (start_at - Duration::days(rng.gen_range(1..30))).min(now - Duration::hours(1));
            let archived_at = rng
                .gen_bool(0.1)
                .then(|| (created_at + Duration::days(rng.gen_range(1..20))).min(now));
            let count = rng.gen_range(1..=3).min(active.len());
            let lists = rand::seq::index::sample(rng, active.len(), count)
                .into_iter()
                .map(|i| active[i])
                .collect();
            let campaign = CAMPAIGNS[(p + k) % CAMPAIGNS.len()];
            packages.push(PackagePlan {
                provider: p,
                name: format!("{campaign} {} Nr. {:05}", SECTORS[p % SECTORS.len()], g + 1),
                start_at,
                end_at,
                archived_at,
                created_at,
                lists,
            });
        }
    }
    packages
}

/// The (provider, list index) pairs of the dealer's lists: spread over the providers.
fn dealer_list_slots(size: &LargeDataSize) -> Vec<(usize, usize)> {
    let active: Vec<usize> = (0..size.lists_per_provider)
        .filter(|&k| is_active_list(k))
        .collect();
    (0..size.dealer_lists)
        .map(|j| {
            let provider = j * size.providers / size.dealer_lists.max(1);
            (provider, active[j % active.len()])
        })
        .collect()
}

fn company_of(contact: usize, size: &LargeDataSize) -> usize {
    contact * size.companies / size.contacts
}

/// Creates the large data set unless download packages exist (then it refuses with a German
/// message and changes nothing).
#[tracing::instrument(skip_all)]
pub async fn seed_large(
    db: &Db,
    files: &FileStore,
    size: &LargeDataSize,
) -> anyhow::Result<LargeDataSummary> {
    let started = Instant::now();
    size.check()?;
    if db::downloads::count(db).await? > 0 {
        anyhow::bail!(
            "Es sind bereits Download-Pakete vorhanden. Der große Datensatz wird nur in eine \
             Datenbank ohne Pakete geschrieben (z. B. ein neuer Datenordner mit --data)."
        );
    }
    if files.bucket().is_some() {
        anyhow::bail!(
            "Der große Datensatz wird in einen Dateiordner auf der Platte geschrieben, nicht in \
             einen Bucket: ohne AP_S3_BUCKET anlegen und danach mit copy-files-to-bucket \
             übertragen."
        );
    }
    let now = db::now();
    let mut rng = StdRng::seed_from_u64(20_261_122);
    let packages = plan_packages(size, now, &mut rng);

    let root = files.root().to_path_buf();
    let files_per_package = size.files_per_package;
    let (packages, written) = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let written = write_files(root, &packages, files_per_package);
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "files written"
        );
        written.map(|w| (packages, w))
    })
    .await??;

    match insert_all(db, size, now, &packages, &written, &mut rng).await {
        Ok(mut summary) => {
            summary.elapsed_ms = started.elapsed().as_millis() as u64;
            Ok(summary)
        }
        Err(err) => {
            let root = files.root().to_path_buf();
            let _ = tokio::task::spawn_blocking(move || remove_written(&root, &written)).await;
            Err(err)
        }
    }
}

/// The ids `seed-large` gave the rows it wrote, in the order of its plan.
struct WrittenIds {
    tags: Vec<i64>,
    lists: Vec<i64>,
    uploads: Vec<i64>,
    packages: Vec<i64>,
}

/// The rows of one `seed-large` run, written table by table into one transaction, with what
/// was written counted in `summary`.
struct Rows<'a> {
    tx: Tx,
    size: &'a LargeDataSize,
    now: DateTime<Utc>,
    summary: LargeDataSummary,
}

impl Rows<'_> {
    /// Tags: shared with whatever exists already (names are unique).
    async fn tags(&mut self) -> anyhow::Result<Vec<i64>> {
        let (now, tx, summary) = (self.now, &mut self.tx, &mut self.summary);
        let tag_columns = ["name", "icon", "created_at", "updated_at"];
        let mut sql = insert_sql("tags", &tag_columns, TAGS.len(), None);
        sql.push_str(" on conflict (name) do nothing");
        let values: Vec<Param> = TAGS
            .iter()
            .flat_map(|(name, icon)| {
                [
                    Param::from(*name),
                    Param::from(*icon),
                    now.into(),
                    now.into(),
                ]
            })
            .collect();
        tx.execute(&sql, &values).await?;
        let tag_names: Vec<String> = TAGS.iter().map(|(name, _)| name.to_string()).collect();
        let mut select = String::from("select id, name from tags where name in (");
        for i in 0..tag_names.len() {
            let _ = write!(select, "{}${}", if i > 0 { ", " } else { "" }, i + 1);
        }
        select.push(')');
        let tag_values: Vec<Param> = tag_names.iter().map(|n| Param::from(n.as_str())).collect();
        let tag_ids = ids_in_order(&tag_names, tx.pairs(&select, &tag_values).await?, "Tag")?;
        summary.tags = tag_ids.len() as u64;
        Ok(tag_ids)
    }

    /// Providers and their roles.
    async fn providers(&mut self) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let provider_names: Vec<String> = (0..size.providers).map(provider_name).collect();
        let (n, returned) = tx
            .insert(
                "providers",
                &["name", "created_at", "updated_at"],
                provider_names
                    .iter()
                    .map(|name| vec![Param::from(name.as_str()), now.into(), now.into()]),
                Some("id, name"),
            )
            .await?;
        summary.providers = n;
        let provider_ids = ids_in_order(&provider_names, returned, "Anbieter")?;
        let (n, _) = tx
            .insert(
                "provider_roles",
                &["provider_id", "role", "created_at", "updated_at"],
                provider_ids.iter().enumerate().flat_map(|(p, &id)| {
                    provider_roles(p).into_iter().map(move |role| {
                        vec![Param::from(id), Param::from(role), now.into(), now.into()]
                    })
                }),
                None,
            )
            .await?;
        summary.provider_roles = n;
        Ok(provider_ids)
    }

    /// Lists (every tenth inactive).
    async fn lists(&mut self, provider_ids: &[i64]) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let list_names: Vec<String> = (0..size.providers)
            .flat_map(|p| (0..size.lists_per_provider).map(move |k| list_name(p, k)))
            .collect();
        let (n, returned) = tx
            .insert(
                "lists",
                &[
                    "provider_id",
                    "name",
                    "active",
                    "deactivated_at",
                    "created_at",
                    "updated_at",
                ],
                list_names.iter().enumerate().map(|(i, name)| {
                    let (p, k) = (i / size.lists_per_provider, i % size.lists_per_provider);
                    let active = is_active_list(k);
                    vec![
                        Param::from(provider_ids[p]),
                        Param::from(name.as_str()),
                        Param::from(active),
                        Param::from((!active).then_some(now)),
                        now.into(),
                        now.into(),
                    ]
                }),
                Some("id, name"),
            )
            .await?;
        summary.lists = n;
        let list_ids = ids_in_order(&list_names, returned, "Kriterium")?;
        Ok(list_ids)
    }

    /// The uploads of the written files.
    async fn uploads(
        &mut self,
        packages: &[PackagePlan],
        written: &[WrittenFile],
    ) -> anyhow::Result<Vec<i64>> {
        let (size, tx, summary) = (self.size, &mut self.tx, &mut self.summary);
        let created_of = |i: usize| packages[i / size.files_per_package].created_at;
        let (n, returned) = tx
            .insert(
                "uploads",
                &[
                    "name",
                    "storage_key",
                    "ext",
                    "size",
                    "content_type",
                    "sha256",
                    "crc32",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().map(|(i, file)| {
                    vec![
                        Param::from(file.name.as_str()),
                        Param::from(file.key.as_str()),
                        Param::from(file.ext),
                        Param::from(file.size),
                        Param::from(file.content_type),
                        Param::from(file.sha256.as_str()),
                        Param::from(file.crc32),
                        created_of(i).into(),
                        created_of(i).into(),
                    ]
                }),
                Some("id, storage_key"),
            )
            .await?;
        summary.uploads = n;
        summary.bytes = written.iter().map(|f| f.size as u64).sum();
        let keys: Vec<String> = written.iter().map(|f| f.key.clone()).collect();
        let upload_ids = ids_in_order(&keys, returned, "Datei")?;
        drop(keys);
        Ok(upload_ids)
    }

    /// The packages.
    async fn packages(
        &mut self,
        packages: &[PackagePlan],
        provider_ids: &[i64],
    ) -> anyhow::Result<Vec<i64>> {
        let (tx, summary) = (&mut self.tx, &mut self.summary);
        let package_names: Vec<String> = packages.iter().map(|p| p.name.clone()).collect();
        let (n, returned) = tx
            .insert(
                "downloads",
                &[
                    "provider_id",
                    "name",
                    "start_at",
                    "end_at",
                    "archived",
                    "archived_at",
                    "created_at",
                    "updated_at",
                ],
                packages.iter().map(|p| {
                    vec![
                        Param::from(provider_ids[p.provider]),
                        Param::from(p.name.as_str()),
                        p.start_at.into(),
                        p.end_at.into(),
                        Param::from(p.archived_at.is_some()),
                        Param::from(p.archived_at),
                        p.created_at.into(),
                        p.archived_at.unwrap_or(p.created_at).into(),
                    ]
                }),
                Some("id, name"),
            )
            .await?;
        summary.downloads = n;
        summary.archived = packages.iter().filter(|p| p.archived_at.is_some()).count() as u64;
        let download_ids = ids_in_order(&package_names, returned, "Download")?;
        drop(package_names);
        Ok(download_ids)
    }

    /// The files of the packages, their tags and the packages' lists.
    async fn package_contents(
        &mut self,
        packages: &[PackagePlan],
        written: &[WrittenFile],
        ids: &WrittenIds,
    ) -> anyhow::Result<()> {
        let (size, tx, summary) = (self.size, &mut self.tx, &mut self.summary);
        let created_of = |i: usize| packages[i / size.files_per_package].created_at;
        let list_id = |p: usize, k: usize| ids.lists[p * size.lists_per_provider + k];
        let (download_ids, upload_ids, tag_ids) = (&ids.packages, &ids.uploads, &ids.tags);
        let fpp = size.files_per_package;
        let (n, _) = tx
            .insert(
                "download_uploads",
                &[
                    "download_id",
                    "upload_id",
                    "position",
                    "name",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().map(|(i, file)| {
                    vec![
                        Param::from(download_ids[i / fpp]),
                        Param::from(upload_ids[i]),
                        Param::Int32((i % fpp) as i32),
                        Param::from(file.name.as_str()),
                        created_of(i).into(),
                        created_of(i).into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.download_uploads = n;
        let (n, _) = tx
            .insert(
                "download_upload_tags",
                &[
                    "download_id",
                    "upload_id",
                    "tag_id",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().flat_map(|(i, file)| {
                    let (download, upload, created) =
                        (download_ids[i / fpp], upload_ids[i], created_of(i));
                    let tag_ids = &tag_ids;
                    file.tags.iter().map(move |&t| {
                        vec![
                            Param::from(download),
                            Param::from(upload),
                            Param::from(tag_ids[t]),
                            created.into(),
                            created.into(),
                        ]
                    })
                }),
                None,
            )
            .await?;
        summary.file_tags = n;
        let (n, _) = tx
            .insert(
                "download_lists",
                &["download_id", "list_id", "created_at", "updated_at"],
                packages
                    .iter()
                    .zip(download_ids)
                    .flat_map(|(p, &download)| {
                        p.lists.iter().map(move |&k| {
                            vec![
                                Param::from(download),
                                Param::from(list_id(p.provider, k)),
                                p.created_at.into(),
                                p.created_at.into(),
                            ]
                        })
                    }),
                None,
            )
            .await?;
        summary.download_lists = n;
        Ok(())
    }

    /// Companies and contacts.
    async fn contacts(&mut self, rng: &mut StdRng) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let (n, _) = tx
            .insert(
                "companies",
                &[
                    "customer_number",
                    "company_name",
                    "created_at",
                    "updated_at",
                ],
                (0..size.companies).map(|c| {
                    let name = format!(
                        "{} {} {}",
                        LASTNAMES[c % LASTNAMES.len()],
                        [
                            "Vertrieb",
                            "Handel",
                            "Service",
                            "& Partner",
                            "Energieberatung"
                        ][c % 5],
                        LEGAL_FORMS[c % LEGAL_FORMS.len()]
                    );
                    vec![
                        Param::from(FIRST_CUSTOMER_NUMBER + c as i64),
                        Param::from(name),
                        now.into(),
                        now.into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.companies = n;
        let emails: Vec<String> = (0..size.contacts)
            .map(|i| {
                format!(
                    "kontakt{:06}@kunde{}.example.de",
                    i + 1,
                    FIRST_CUSTOMER_NUMBER + company_of(i, size) as i64
                )
            })
            .collect();
        let contact_rows = emails.iter().enumerate().map(|(i, email)| {
            let confirmed = rng.gen_bool(0.7);
            let created = now - Duration::minutes(rng.gen_range(60..500_000));
            let first = FIRSTNAMES[rng.gen_range(0..FIRSTNAMES.len())];
            let last = LASTNAMES[rng.gen_range(0..LASTNAMES.len())];
            let customer_number = FIRST_CUSTOMER_NUMBER + company_of(i, size) as i64;
            vec![
                Param::from(customer_number),
                Param::from(email.as_str()),
                Param::Int16(rng.gen_range(0..=4)),
                Param::from(first),
                Param::from(last),
                Param::from(format!("LD-{customer_number}-{}", i + 1)),
                Param::from(confirmed),
                Param::from(confirmed.then_some(created)),
                Param::from(rng.gen_bool(0.02)),
                created.into(),
                created.into(),
            ]
        });
        let (n, returned) = tx
            .insert(
                "contacts",
                &[
                    "customer_number",
                    "email",
                    "salutation",
                    "firstname",
                    "lastname",
                    "extern_id",
                    "double_opt_in",
                    "double_opt_in_at",
                    "email_blacklisted",
                    "created_at",
                    "updated_at",
                ],
                contact_rows,
                Some("id, email"),
            )
            .await?;
        summary.contacts = n;
        let contact_ids = ids_in_order(&emails, returned, "Kontakt")?;
        drop(emails);
        Ok(contact_ids)
    }

    /// Memberships: the dealer company's contacts share its lists; every other contact is on
    /// 1–3 random active lists.
    async fn memberships(
        &mut self,
        contact_ids: &[i64],
        list_ids: &[i64],
        rng: &mut StdRng,
    ) -> anyhow::Result<()> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let list_id = |p: usize, k: usize| list_ids[p * size.lists_per_provider + k];
        let active: Vec<usize> = (0..size.lists_per_provider)
            .filter(|&k| is_active_list(k))
            .collect();
        let dealer_slots = dealer_list_slots(size);
        let dealer_contacts = (0..size.contacts)
            .take_while(|&i| company_of(i, size) == 0)
            .count();
        let mut memberships: Vec<(i64, i64)> = Vec::with_capacity(size.contacts * 2);
        for (i, &contact) in contact_ids.iter().enumerate() {
            if i < dealer_contacts {
                for &(p, k) in dealer_slots.iter().skip(i).step_by(dealer_contacts) {
                    memberships.push((contact, list_id(p, k)));
                }
                continue;
            }
            let mut chosen: Vec<i64> = Vec::with_capacity(3);
            for _ in 0..rng.gen_range(1..=3) {
                let p = rng.gen_range(0..size.providers);
                let k = active[rng.gen_range(0..active.len())];
                let id = list_id(p, k);
                if !chosen.contains(&id) {
                    chosen.push(id);
                }
            }
            memberships.extend(chosen.into_iter().map(|list| (contact, list)));
        }
        let (n, _) = tx
            .insert(
                "contact_lists",
                &["contact_id", "list_id", "created_at", "updated_at"],
                memberships.iter().map(|&(contact, list)| {
                    vec![
                        Param::from(contact),
                        Param::from(list),
                        now.into(),
                        now.into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.contact_lists = n;
        summary.dealer_lists = dealer_slots.len() as u64;
        Ok(())
    }
}

/// Writes every row in one transaction.
async fn insert_all(
    db: &Db,
    size: &LargeDataSize,
    now: DateTime<Utc>,
    packages: &[PackagePlan],
    written: &[WrittenFile],
    rng: &mut StdRng,
) -> anyhow::Result<LargeDataSummary> {
    let mut rows = Rows {
        tx: Tx::begin(db).await?,
        size,
        now,
        summary: LargeDataSummary {
            dealer_customer_number: FIRST_CUSTOMER_NUMBER,
            ..LargeDataSummary::default()
        },
    };
    let tags = rows.tags().await?;
    let provider_ids = rows.providers().await?;
    let lists = rows.lists(&provider_ids).await?;
    let uploads = rows.uploads(packages, written).await?;
    let package_ids = rows.packages(packages, &provider_ids).await?;
    let ids = WrittenIds {
        tags,
        lists,
        uploads,
        packages: package_ids,
    };
    rows.package_contents(packages, written, &ids).await?;
    let contact_ids = rows.contacts(rng).await?;
    rows.memberships(&contact_ids, &ids.lists, rng).await?;
    let Rows { tx, summary, .. } = rows;
    let started = Instant::now();
    tx.commit().await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "committed"
    );
    // Fresh statistics, so the first benchmark does not run on the planner's guesses.
    db::bulk::analyze(db).await?;
    Ok(summary)
}

/// An account of the data set: its password when it was created now, `None` when the login
/// existed already.
#[derive(Clone, Debug)]
pub struct BenchAccount {
    pub login: &'static str,
    pub roles: Vec<String>,
    pub password: Option<String>,
}

/// Creates `bench-admin` (GS-Aktionsportal-Admin) and `bench-haendler` (GS-Aktionsportal,
/// customer number `dealer_customer_number`) with new passwords, leaving existing ones alone.
pub async fn create_accounts(
    db: &Db,
    dealer_customer_number: i64,
) -> anyhow::Result<Vec<BenchAccount>> {
    let wanted: [(&'static str, &str, &str, Option<i64>); 2] = [
        (BENCH_ADMIN, "Benchmark Admin", roles::ADMIN, None),
        (
            BENCH_DEALER,
            "Benchmark Händler",
            roles::PORTAL,
            Some(dealer_customer_number),
        ),
    ];
    let mut out = Vec::new();
    for (login, name, role, customer_number) in wanted {
        let roles = vec![role.to_string()];
        let made = accounts::add_generated(db, login, name, &[role], customer_number).await?;
        out.push(BenchAccount {
            login,
            roles,
            password: made.map(|(_, password)| password),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db_run;
    use crate::test_support::TestDb;

    async fn count(db: &Db, table: &str) -> i64 {
        let sql = format!("select count(*) from {table}");
        db_run!(db, pool => sqlx::query_scalar::<_, i64>(&sql).fetch_one(pool).await.unwrap())
    }

    async fn scalar(db: &Db, sql: &str) -> i64 {
        db_run!(db, pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await.unwrap())
    }

    #[test]
    fn statements_number_their_placeholders() {
        assert_eq!(
            insert_sql("t", &["a", "b"], 2, Some("id, a")),
            "insert into t (a, b) values ($1, $2), ($3, $4) returning id, a"
        );
        assert_eq!(de(200_000), "200.000");
        assert_eq!(de(999), "999");
        assert_eq!(de(1_000_000), "1.000.000");
    }

    #[test]
    fn the_full_size_is_consistent() {
        let full = LargeDataSize::full();
        full.check().unwrap();
        assert_eq!(full.providers * full.lists_per_provider, 2_000);
        assert_eq!(full.providers * full.packages_per_provider, 20_000);
        assert_eq!(
            full.providers * full.packages_per_provider * full.files_per_package,
            100_000
        );
        let slots = dealer_list_slots(&full);
        let mut unique = slots.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 30);
    }

    #[tokio::test]
    async fn creates_the_data_set_with_real_files() {
        let t = TestDb::new().await;
        let store = FileStore::new(t.data_dir.join("files")).unwrap();
        let size = LargeDataSize::tiny();
        let summary = seed_large(&t.db, &store, &size).await.unwrap();
        let packages = (size.providers * size.packages_per_provider) as i64;
        let files = packages * size.files_per_package as i64;

        assert_eq!(summary.providers, size.providers as u64);
        assert_eq!(count(&t.db, "providers").await, size.providers as i64);
        let roles = count(&t.db, "provider_roles").await;
        assert!(roles > size.providers as i64 && roles < 2 * size.providers as i64 + 1);
        assert_eq!(
            count(&t.db, "lists").await,
            (size.providers * size.lists_per_provider) as i64
        );
        assert_eq!(count(&t.db, "downloads").await, packages);
        assert_eq!(summary.downloads as i64, packages);
        assert_eq!(count(&t.db, "uploads").await, files);
        assert_eq!(count(&t.db, "download_uploads").await, files);
        assert_eq!(count(&t.db, "tags").await, TAGS.len() as i64);
        assert_eq!(
            count(&t.db, "download_upload_tags").await,
            summary.file_tags as i64
        );
        assert_eq!(count(&t.db, "companies").await, size.companies as i64);
        assert_eq!(count(&t.db, "contacts").await, size.contacts as i64);
        assert_eq!(
            count(&t.db, "contact_lists").await,
            summary.contact_lists as i64
        );
        assert!(summary.contact_lists >= size.contacts as u64 - 3);
        assert_eq!(
            count(&t.db, "download_lists").await,
            summary.download_lists as i64
        );

        // Every package has 1–3 lists, all active and of its own provider, and its files in
        // positions 0…n-1.
        assert_eq!(
            scalar(
                &t.db,
                "select count(*) from download_lists dl join downloads d on d.id = dl.download_id \
                 join lists l on l.id = dl.list_id where l.provider_id <> d.provider_id or not l.active"
            )
            .await,
            0
        );
        assert_eq!(
            scalar(
                &t.db,
                "select count(*) from (select download_id, count(*) as n from download_lists \
                 group by download_id) x where n between 1 and 3"
            )
            .await,
            packages
        );
        assert_eq!(
            scalar(
                &t.db,
                "select cast(max(position) as bigint) from download_uploads"
            )
            .await,
            size.files_per_package as i64 - 1
        );
        assert_eq!(
            scalar(&t.db, "select count(*) from downloads where archived").await,
            summary.archived as i64
        );
        assert_eq!(
            scalar(
                &t.db,
                "select count(*) from download_uploads du join uploads u on u.id = du.upload_id \
                 where du.name <> u.name"
            )
            .await,
            0
        );

        // The dealer's contacts are on the promised number of lists.
        let dealer_lists =
            db::contacts::list_ids_of_customer(&t.db, summary.dealer_customer_number)
                .await
                .unwrap();
        assert_eq!(dealer_lists.len(), size.dealer_lists);

        // Every stored file is on disk, with the recorded size and checksums.
        let uploads = db::uploads::list_all(&t.db).await.unwrap();
        let mut keys: Vec<&str> = uploads.iter().map(|u| u.storage_key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), uploads.len(), "storage keys are unique");
        let mut total = 0u64;
        for upload in &uploads {
            let bytes = store.read(&upload.storage_key).await.unwrap();
            assert_eq!(bytes.len() as i64, upload.size, "{}", upload.name);
            let sha: String = Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(
                upload.sha256.as_deref(),
                Some(sha.as_str()),
                "{}",
                upload.name
            );
            assert_eq!(upload.crc32, Some(i64::from(crc32fast::hash(&bytes))));
            assert_eq!(
                crate::domain::files::content_type(&upload.ext, &bytes),
                Some(upload.content_type.as_str()),
                "{}",
                upload.name
            );
            assert!(upload.name.ends_with(&format!(".{}", upload.ext)));
            total += bytes.len() as u64;
        }
        assert_eq!(total, summary.bytes);
        let digest = store.measure(&uploads[0].storage_key).await.unwrap();
        assert_eq!(Some(digest.sha256), uploads[0].sha256);

        // The accounts, once.
        let accounts = create_accounts(&t.db, summary.dealer_customer_number)
            .await
            .unwrap();
        assert!(accounts.iter().all(|a| a.password.is_some()));
        let dealer = db::users::find_by_login(&t.db, BENCH_DEALER)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(dealer.customer_number, Some(FIRST_CUSTOMER_NUMBER));
        let again = create_accounts(&t.db, summary.dealer_customer_number)
            .await
            .unwrap();
        assert!(again.iter().all(|a| a.password.is_none()));

        // A second run refuses and changes nothing.
        let err = seed_large(&t.db, &store, &size).await.unwrap_err();
        assert!(err.to_string().contains("bereits Download-Pakete"), "{err}");
        assert_eq!(count(&t.db, "uploads").await, files);
        assert!(summary.to_string().contains("Großer Datensatz angelegt"));
    }
}
