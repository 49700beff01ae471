//! The command line: `serve` (default), `migrate`, `user …`, `seed-demo`, `seed-large`,
//! `copy-files-to-bucket`, `export`, `import`, `previews` (and the hidden `preview-render` the portal runs).

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::auth::throttle::ThrottleKey;
use crate::config::{Config, LogFormat, Overrides};
use crate::db::Db;
use crate::domain::roles;
use crate::services::accounts::{self, AccountInput};
use crate::startup;
use crate::state::AppState;
use crate::storage::FileStore;

#[derive(Parser, Debug)]
#[command(
    name = "aktionsportal",
    version,
    about = "Aktionsportal: Download-Portal für Werbematerial"
)]
pub struct Cli {
    /// Data folder (SQLite file and uploaded files); overrides the configuration.
    #[arg(long = "data", global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Configuration file (default: aktionsportal.toml in the working folder, if present).
    #[arg(long, global = true, value_name = "FILE", env = "AP_CONFIG")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the portal (default). Migrations run first.
    Serve {
        /// Listen address HOST:PORT; overrides the configuration.
        #[arg(long)]
        addr: Option<SocketAddr>,
    },
    /// Bring the database schema up to date and exit.
    Migrate,
    /// Manage local accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Create the German demo data set and demo accounts (once; prints their passwords).
    SeedDemo,
    /// Create the large benchmark data set (200 providers, 20,000 packages, 100,000 files,
    /// 200,000 contacts) and the accounts bench-admin and bench-haendler; refused when
    /// download packages exist.
    SeedLarge,
    /// Copy the files of the local folder (<data dir>/files) into the bucket configured with
    /// AP_S3_BUCKET, then check that every file the database names is in the bucket with its
    /// size and checksum. Safe to run again: files already there are checked, not copied.
    CopyFilesToBucket,
    /// Write the whole installation (every table, read in one snapshot while the portal
    /// serves on, and every stored file with its SHA-256) into one archive: the backup, and
    /// the way to another database or file store.
    Export {
        /// The archive to write (a ZIP file; refused when it exists).
        #[arg(long, value_name = "FILE")]
        to: PathBuf,
    },
    /// Fill an empty database (DATABASE_URL, else the SQLite file of the data folder) and an
    /// empty file store (AP_S3_BUCKET, else the data folder) from an archive of `export`,
    /// after checking every checksum.
    Import {
        /// The archive to read.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
    },
    /// Make the previews of every stored picture, SVG drawing and PDF that has none yet
    /// (the running portal does this by itself; this shows the progress).
    Previews,
    /// Render the previews of one file read from standard input (the portal starts this
    /// itself, in a child process with these limits; not for people).
    #[command(name = "preview-render", hide = true)]
    PreviewRender {
        #[arg(long)]
        kind: String,
        #[arg(long)]
        memory_mb: u64,
        #[arg(long)]
        cpu_secs: u64,
    },
}

impl Cli {
    /// Runs the commands that need no async runtime (the preview renderer, which limits its
    /// own memory and must not start threads first); `None` for all others.
    pub fn run_without_runtime(&self) -> Option<i32> {
        match &self.command {
            Some(Command::PreviewRender {
                kind,
                memory_mb,
                cpu_secs,
            }) => Some(crate::previews::isolated::serve_one(
                kind, *memory_mb, *cpu_secs,
            )),
            _ => None,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Create an account; the password is read from the first line of standard input.
    Add(UserAdd),
    /// List the accounts.
    List,
    /// Delete an account and end its sessions.
    Remove {
        #[arg(long)]
        login: String,
    },
    /// Set a new password (read from standard input) and end the account's sessions.
    SetPassword {
        #[arg(long)]
        login: String,
        #[arg(long, required = true)]
        password_stdin: bool,
    },
    /// Replace the account's roles and end its sessions.
    SetRoles {
        #[arg(long)]
        login: String,
        #[arg(long, value_delimiter = ',', required = true)]
        roles: Vec<String>,
    },
    /// Lift the lock after too many failed logins, for an account or a client address
    /// (it also ends by itself 15 minutes after the first failed attempt).
    Unlock {
        #[arg(long, required_unless_present = "address")]
        login: Option<String>,
        #[arg(long)]
        address: Option<std::net::IpAddr>,
    },
}

#[derive(Args, Debug)]
pub struct UserAdd {
    #[arg(long)]
    pub login: String,
    /// Read the password from standard input (required: passwords never go on the command line).
    #[arg(long, required = true)]
    pub password_stdin: bool,
    /// Comma-separated roles, e.g. GS-Aktionsportal-Admin,GS-Aktionsportal.
    #[arg(long, value_delimiter = ',', required = true)]
    pub roles: Vec<String>,
    #[arg(long)]
    pub customer_number: Option<i64>,
    #[arg(long)]
    pub email: String,
    /// Display name (default: the login).
    #[arg(long)]
    pub name: Option<String>,
}

/// Runs the command line and returns the process exit code.
pub async fn run(cli: Cli) -> i32 {
    if let Some(code) = cli.run_without_runtime() {
        return code;
    }
    let addr = match &cli.command {
        Some(Command::Serve { addr }) => *addr,
        _ => None,
    };
    let overrides = Overrides {
        data_dir: cli.data_dir.clone(),
        addr,
    };
    let config = match Config::load(cli.config.as_deref(), &overrides) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("{err}");
            return 2;
        }
    };
    // An export or import reads whole tables on purpose: sqlx's notes on slow statements
    // would only crowd its progress.
    let quiet_sqlx = matches!(
        cli.command,
        Some(Command::Export { .. } | Command::Import { .. })
    );
    init_tracing(config.log_format, quiet_sqlx);
    match execute(cli.command.unwrap_or(Command::Serve { addr: None }), config).await {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("Fehler: {err:#}");
            1
        }
    }
}

fn init_tracing(format: LogFormat, quiet_sqlx: bool) {
    use tracing_subscriber::EnvFilter;
    let default = if quiet_sqlx {
        "info,sqlx=error"
    } else {
        "info,sqlx=warn"
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// The configured database, with a German message when it cannot be reached.
async fn open_database(config: &Config) -> anyhow::Result<Db> {
    startup::open_database(config).await.map_err(|e| {
        anyhow::anyhow!(
            "Datenbank ({}) nicht erreichbar: {e}",
            config.database_description()
        )
    })
}

async fn open_migrated(config: &Config) -> anyhow::Result<Db> {
    let db = open_database(config).await?;
    db.migrate().await?;
    Ok(db)
}

async fn execute(command: Command, config: Config) -> anyhow::Result<()> {
    // An import migrates the empty database to the archive's schema itself.
    if let Command::Import { from } = &command {
        return import(&config, from).await;
    }
    let db = open_migrated(&config).await?;
    let result = match command {
        Command::Serve { .. } => serve(config, db.clone()).await,
        Command::Migrate => {
            println!(
                "Datenbank ist auf dem neuesten Stand ({}).",
                config.database_description()
            );
            Ok(())
        }
        Command::User(command) => user(&db, command).await,
        Command::SeedDemo => seed_demo(&config, &db).await,
        Command::SeedLarge => seed_large(&config, &db).await,
        Command::CopyFilesToBucket => copy_files_to_bucket(&config, &db).await,
        Command::Export { to } => export(&config, &db, &to).await,
        Command::Import { .. } => Ok(()),
        Command::Previews => make_previews(&config, &db).await,
        // Handled by `run` before anything else (see `Cli::run_without_runtime`).
        Command::PreviewRender { .. } => Ok(()),
    };
    db.close().await;
    result
}

async fn serve(config: Config, db: Db) -> anyhow::Result<()> {
    let addr = config.addr;
    tracing::info!(database = %config.database_description(), data = %config.data_dir.display(), "starting");
    let state = AppState::new(config, db)?;
    let state_for_stop = state.clone();
    let server = startup::serve(state, addr, startup::shutdown_signal()).await?;
    tracing::info!("Aktionsportal läuft auf http://{}", server.addr);
    server.task.await??;
    // The deliveries that ended with the server have recorded their events: write them.
    state_for_stop.statistics.flush().await;
    tracing::info!("stopped");
    Ok(())
}

fn read_password_from_stdin() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    anyhow::ensure!(
        !password.is_empty(),
        "Kein Passwort auf der Standardeingabe erhalten."
    );
    Ok(password)
}

async fn user(db: &Db, command: UserCommand) -> anyhow::Result<()> {
    match command {
        UserCommand::Add(add) => {
            let user = accounts::add(
                db,
                AccountInput {
                    login: add.login,
                    password: read_password_from_stdin()?,
                    name: add.name,
                    email: add.email,
                    customer_number: add.customer_number,
                    roles: add.roles,
                },
            )
            .await?;
            println!(
                "Konto {} angelegt (Rollen: {}).",
                user.login,
                user.roles.join(", ")
            );
        }
        UserCommand::List => {
            let users = crate::db::accounts::users::list(db).await?;
            if users.is_empty() {
                println!("Keine Konten vorhanden.");
            }
            for user in users {
                let number = user
                    .customer_number
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "-".into());
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    user.login,
                    user.name,
                    user.email,
                    number,
                    user.roles.join(",")
                );
            }
        }
        UserCommand::Remove { login } => {
            accounts::remove(db, &login).await?;
            println!("Konto {} gelöscht.", login.trim());
        }
        UserCommand::SetPassword { login, .. } => {
            accounts::set_password(db, &login, &read_password_from_stdin()?).await?;
            println!("Passwort für {} geändert.", login.trim());
        }
        UserCommand::SetRoles { login, roles } => {
            accounts::set_roles(db, &login, &roles).await?;
            println!("Rollen für {} geändert.", login.trim());
        }
        UserCommand::Unlock { login, address } => {
            let keys = login
                .iter()
                .map(|login| ThrottleKey::Account(login.clone()))
                .chain(address.map(ThrottleKey::Address))
                .chain(address.map(ThrottleKey::LoginStart));
            for key in keys {
                let name = match &key {
                    ThrottleKey::Account(login) => format!("Konto {}", login.trim()),
                    ThrottleKey::Address(ip) => format!("Adresse {ip}"),
                    ThrottleKey::LoginStart(ip) => format!("Anmeldestarts der Adresse {ip}"),
                };
                if accounts::unlock(db, &key).await? {
                    println!("Sperre für {name} aufgehoben.");
                } else {
                    println!("Für {name} bestand keine Sperre.");
                }
            }
        }
    }
    Ok(())
}

/// Demo accounts created by `seed-demo`: login, display name, roles, customer number.
const DEMO_ACCOUNTS: [(&str, &str, &[&str], Option<i64>); 4] = [
    (
        "admin",
        "Anna Admin",
        &[roles::ADMIN, roles::DEVELOPER],
        None,
    ),
    (
        "moderator",
        "Moritz Moderator",
        &[roles::BU_MODERATOR, "GS-Aktionsportal-BU-Glasfaser"],
        None,
    ),
    (
        "doi",
        "Doris Opt-In",
        &[roles::BU_DOI, "GS-Aktionsportal-BU-Glasfaser"],
        None,
    ),
    ("haendler", "Hanna Händler", &[roles::PORTAL], Some(100_001)),
];

async fn seed_demo(config: &Config, db: &Db) -> anyhow::Result<()> {
    let files = FileStore::from_config(config)?;
    let summary = crate::seed::demo::seed_demo(db, &files).await?;
    println!("{summary}");
    for (login, name, account_roles, customer_number) in DEMO_ACCOUNTS {
        let Some((account, password)) =
            accounts::add_generated(db, login, name, account_roles, customer_number).await?
        else {
            println!(
                "Konto {login} existiert bereits (neues Passwort: aktionsportal user set-password --login {login} --password-stdin)."
            );
            continue;
        };
        // The dealer has been here before, so the demo shows what is new since then.
        if customer_number.is_some() {
            crate::seed::demo::seed_earlier_visit(db, account.id).await?;
        }
        println!(
            "Konto angelegt: Login {login}, Passwort {password} (Rollen: {})",
            account_roles.join(", ")
        );
    }
    if config.previews {
        make_previews(config, db).await?;
    }
    Ok(())
}

/// Makes the missing previews, with the progress on the terminal.
async fn make_previews(config: &Config, db: &Db) -> anyhow::Result<()> {
    use crate::previews::DrawingKind;
    use std::io::Write;
    let files = FileStore::from_config(config)?;
    let worker = crate::services::catalog::previews::PreviewWorker::from_config(config);
    let Some(renderer) = worker.renderer() else {
        anyhow::bail!(
            "Vorschauen sind ausgeschaltet (AP_PREVIEWS) oder ohne Renderer (AP_PREVIEW_RENDERER)."
        );
    };
    let counts = crate::db::catalog::previews::counts(db, &DrawingKind::CONTENT_TYPES).await?;
    println!(
        "Vorschauen: {} vorhanden, {} nicht möglich, {} zu erstellen.",
        counts.ready, counts.failed, counts.waiting
    );
    let total = counts.waiting;
    let mut done = 0i64;
    let mut progress = |_: &crate::services::catalog::previews::PreviewOutcome| {
        done += 1;
        print!("\r{done} von {total} …");
        let _ = std::io::stdout().flush();
    };
    let report =
        crate::services::catalog::previews::pass(db, &files, renderer, &mut progress).await?;
    if total > 0 {
        println!();
    }
    println!(
        "Vorschauen erstellt: {} neu, {} nicht möglich, {} später erneut zu versuchen.",
        report.made, report.failed, report.postponed
    );
    Ok(())
}

async fn copy_files_to_bucket(config: &Config, db: &Db) -> anyhow::Result<()> {
    let bucket = FileStore::from_config(config)?;
    let Some(target) = bucket.bucket() else {
        anyhow::bail!("Es ist kein Bucket eingestellt (AP_S3_BUCKET).");
    };
    println!(
        "Kopiere {} nach {} …",
        config.files_dir().display(),
        target.describe()
    );
    let local = FileStore::new(config.files_dir())?;
    let report = crate::services::catalog::uploads::copy_to_bucket(db, &local, &bucket).await?;
    println!("{report}");
    if !report.is_complete() {
        anyhow::bail!("Der Bucket ist nicht vollständig: siehe die Liste oben.");
    }
    Ok(())
}

/// Prints progress: a status overwrites the line before it on a terminal, and is left out
/// elsewhere (a log would fill with them).
fn progress_printer() -> crate::services::operations::backup::OnProgress {
    use crate::services::operations::backup::BackupProgress;
    use std::io::{IsTerminal, Write};
    let terminal = std::io::stdout().is_terminal();
    std::sync::Arc::new(move |step| match step {
        BackupProgress::Line(text) if text.is_empty() => {
            if terminal {
                println!();
            }
        }
        BackupProgress::Line(text) => {
            if terminal {
                print!("\r\x1b[K");
            }
            println!("{text}");
        }
        BackupProgress::Status(text) => {
            if terminal {
                print!("\r\x1b[K{text}");
                let _ = std::io::stdout().flush();
            }
        }
    })
}

async fn export(config: &Config, db: &Db, to: &std::path::Path) -> anyhow::Result<()> {
    let files = FileStore::from_config(config)?;
    println!(
        "Exportiere {} und {} nach {} …",
        config.database_description(),
        files.describe(),
        to.display()
    );
    let report =
        crate::services::operations::backup::export(db, &files, to, progress_printer()).await?;
    println!(
        "Fertig: {} Tabellen mit {} Zeilen, {} Dateien ({}); das Archiv hat {}.",
        report.tables,
        report.rows,
        report.files,
        crate::domain::format::file_size(report.file_bytes as i64),
        crate::domain::format::file_size(report.archive_bytes as i64)
    );
    if !report.missing.is_empty() {
        println!(
            "{} Dateien wurden während des Exports gelöscht; ihre Zeilen sind ohne Datei im Archiv.",
            report.missing.len()
        );
    }
    Ok(())
}

async fn import(config: &Config, from: &std::path::Path) -> anyhow::Result<()> {
    let db = open_database(config).await?;
    let files = FileStore::from_config(config)?;
    println!(
        "Importiere {} nach {} und {} …",
        from.display(),
        config.database_description(),
        files.describe()
    );
    let result =
        crate::services::operations::backup::restore(&db, &files, from, progress_printer()).await;
    db.close().await;
    let report = result?;
    println!(
        "Fertig: {} Tabellen mit {} Zeilen und {} Dateien ({}) importiert, Datenbankschema {} auf den neuesten Stand gebracht.",
        report.tables,
        report.rows,
        report.files,
        crate::domain::format::file_size(report.file_bytes as i64),
        report.schema
    );
    Ok(())
}

async fn seed_large(config: &Config, db: &Db) -> anyhow::Result<()> {
    use crate::seed::large::{self, LargeDataSize};
    let files = FileStore::from_config(config)?;
    println!(
        "Lege den großen Datensatz an ({}) …",
        config.database_description()
    );
    let size = LargeDataSize::full();
    let summary = large::seed_large(db, &files, &size).await?;
    println!("{summary}");
    // A year of downloads for the statistics (issue 24).
    let events = crate::seed::large_events::seed_download_events(
        db,
        10_000_000,
        365,
        config.stats_personal_days,
        size.companies,
    )
    .await?;
    println!(
        "  {} Download-Ereignisse über 365 Tage in {:.1} s ({} der letzten {} Tage als Ereignisse, {} Tageszeilen, {} Summenzeilen)",
        events.events,
        events.elapsed_ms as f64 / 1000.0,
        events.kept,
        config.stats_personal_days,
        events.daily_rows,
        events.totals_rows
    );
    // Two years of an editorial team's changes for the Protokoll (issue 24).
    let (entries, elapsed_ms) =
        crate::seed::large_audit::seed_audit_entries(db, 500_000, 730).await?;
    println!(
        "  {entries} Protokolleinträge über 730 Tage in {:.1} s",
        elapsed_ms as f64 / 1000.0
    );
    crate::db::bulk::analyze(db).await?;
    for account in large::create_accounts(db, summary.dealer_customer_number).await? {
        let login = account.login;
        match account.password {
            Some(password) => println!(
                "Konto angelegt: Login {login}, Passwort {password} (Rollen: {})",
                account.roles.join(", ")
            ),
            None => println!(
                "Konto {login} existiert bereits (neues Passwort: aktionsportal user set-password --login {login} --password-stdin)."
            ),
        }
    }
    Ok(())
}
