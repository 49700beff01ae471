//! Fresh, migrated databases for tests, on the backend the test run selects.
//!
//! `AP_TEST_BACKEND=postgres` runs against PostgreSQL (`AP_TEST_POSTGRES_URL`, default
//! `postgres://postgres@127.0.0.1:5432/postgres`), creating one database per test; anything
//! else uses a new SQLite file in a temporary folder. The test command runs the suite once
//! for each backend.
//!
//! Compiled only for the crate's own unit tests and with the `test-support` feature, which the
//! integration tests get through the crate's dev-dependency on itself; the release binary does
//! not contain it.

use std::path::PathBuf;

use rand::Rng;
use sqlx::Connection;

use crate::db::{Backend, Db};

pub const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// The backend this test run uses.
pub fn test_backend() -> Backend {
    match std::env::var("AP_TEST_BACKEND").as_deref() {
        Ok("postgres") => Backend::Postgres,
        _ => Backend::Sqlite,
    }
}

/// A migrated database that lives as long as this value (the SQLite folder is removed on drop;
/// PostgreSQL test databases are dropped by the next `cleanup_stale` call or by the test script).
pub struct TestDb {
    pub db: Db,
    /// The URL another process (the CLI in tests) can use to reach the same database.
    pub url: String,
    /// Data folder for files; SQLite keeps its database file here too.
    pub data_dir: PathBuf,
    _dir: tempfile::TempDir,
}

impl TestDb {
    pub async fn new() -> TestDb {
        Self::on(test_backend()).await
    }

    /// A fresh PostgreSQL database whatever `AP_TEST_BACKEND` says (for what only a database
    /// server can do, such as going away).
    pub async fn postgres() -> TestDb {
        Self::on(Backend::Postgres).await
    }

    /// A contact `k{i}@example.de` of customer number 1 (its company made first); its id.
    pub async fn contact(&self, i: usize, confirmed: bool, blocked: bool) -> i64 {
        use crate::db::contacts;
        contacts::upsert_company(&self.db, 1, "Firma")
            .await
            .unwrap();
        let new = contacts::NewContact {
            customer_number: 1,
            brevo_contact_id: None,
            email: format!("k{i}@example.de"),
            salutation: 0,
            firstname: "A".into(),
            lastname: "B".into(),
            extern_id: None,
            double_opt_in: confirmed,
            email_blacklisted: blocked,
        };
        contacts::create_contact(&self.db, &new).await.unwrap().id
    }

    async fn on(backend: Backend) -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder");
        let data_dir = dir.path().join("data");
        std::fs::create_dir_all(&data_dir).expect("data folder");
        let (db, url) = match backend {
            Backend::Sqlite => {
                let path = data_dir.join("aktionsportal.db");
                let db = Db::open_sqlite(&path).await.expect("open SQLite");
                (db, format!("sqlite://{}", path.display()))
            }
            Backend::Postgres => {
                let url = create_postgres_database().await;
                let db = Db::connect(&url).await.expect("connect PostgreSQL");
                (db, url)
            }
        };
        db.migrate().await.expect("migrations");
        TestDb {
            db,
            url,
            data_dir,
            _dir: dir,
        }
    }
}

/// The URL of a new database of `backend` without any table (for an import), and the
/// folder that holds it (and is its data folder) for SQLite.
pub async fn empty_database(backend: Backend) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = match backend {
        Backend::Sqlite => format!("sqlite://{}", dir.path().join("aktionsportal.db").display()),
        Backend::Postgres => create_postgres_database().await,
    };
    (url, dir)
}

fn admin_url() -> String {
    std::env::var("AP_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_string())
}

/// Creates an empty database with a random name and returns its URL.
async fn create_postgres_database() -> String {
    let admin = admin_url();
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL at {admin} is not reachable: {e}"));
    let name = format!("ap_test_{:016x}", rand::thread_rng().r#gen::<u64>());
    sqlx::query(&format!("create database {name}"))
        .execute(&mut conn)
        .await
        .expect("create test database");
    let _ = conn.close().await;
    match admin.rfind('/') {
        Some(slash) => format!("{}/{}", &admin[..slash], name),
        None => panic!("AP_TEST_POSTGRES_URL must end with a database name"),
    }
}

/// SQL that inserts company `customer_number` directly (for tests of triggers and
/// transactions below the services).
pub fn company_insert_sql(customer_number: i64) -> String {
    format!(
        "insert into companies (customer_number, company_name, created_at, updated_at) \
         values ({customer_number}, 'F', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')"
    )
}

/// A PDF of these objects (numbered from 1, the first the catalog), with its cross-reference
/// table: for tests that need a PDF of a given shape (a giant page, deep nesting).
pub fn pdf_of(objects: &[String]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer << /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// The audit entry of a change a test makes directly through the data layer (as the CLI
/// would): the data layer wants one with every change.
pub fn cli_change() -> crate::domain::audit::Entry {
    use crate::domain::audit::{Action, Actor, Entity, Entry};
    Entry::new(&Actor::Cli, Action::Update, Entity::Package, None)
}
