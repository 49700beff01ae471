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

mod files;
mod rows;

use files::{WrittenFile, remove_written, write_files};
use rows::insert_all;

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

const BUSINESSES: &[&str] = &[
    "Vertrieb",
    "Handel",
    "Service",
    "& Partner",
    "Energieberatung",
];

const TOWNS: &[&str] = &[
    "Berlin",
    "Hamburg",
    "München",
    "Köln",
    "Frankfurt",
    "Stuttgart",
    "Düsseldorf",
    "Leipzig",
    "Dortmund",
    "Essen",
    "Bremen",
    "Dresden",
    "Hannover",
    "Nürnberg",
    "Duisburg",
    "Bochum",
    "Wuppertal",
    "Bielefeld",
    "Bonn",
    "Münster",
    "Mannheim",
    "Karlsruhe",
    "Augsburg",
    "Wiesbaden",
    "Kassel",
];

/// The `c`-th company's name, "<last name>[-<last name>] <business> <town> <legal form>":
/// distinct for the first 50,000 (20 × 20 × 5 × 25), as real customer groups are, so that a
/// search for a company finds a few of them, not a fifth of all (issue 41).
fn company_name(c: usize) -> String {
    let first = LASTNAMES[c % LASTNAMES.len()];
    let second = LASTNAMES[c / LASTNAMES.len() % LASTNAMES.len()];
    let rest = c / (LASTNAMES.len() * LASTNAMES.len());
    let family = if first == second {
        first.to_string()
    } else {
        format!("{first}-{second}")
    };
    format!(
        "{family} {} {} {}",
        BUSINESSES[rest % BUSINESSES.len()],
        TOWNS[rest / BUSINESSES.len() % TOWNS.len()],
        LEGAL_FORMS[c % LEGAL_FORMS.len()]
    )
}

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
    if db::catalog::packages::count(db).await? > 0 {
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

    #[test]
    fn the_companies_of_the_large_data_set_have_distinct_names() {
        let names: std::collections::HashSet<String> = (0..LargeDataSize::full().companies)
            .map(company_name)
            .collect();
        assert_eq!(names.len(), LargeDataSize::full().companies);
        assert_eq!(company_name(0), "Müller Vertrieb Berlin GmbH");
        assert_eq!(company_name(24), "Weber-Schmidt Vertrieb Berlin GbR");
    }

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
        let uploads = db::catalog::uploads::list_all(&t.db).await.unwrap();
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
        let dealer = db::accounts::users::find_by_login(&t.db, BENCH_DEALER)
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
