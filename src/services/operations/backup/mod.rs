//! Export and import of a whole installation (issue 25): the backup, the restore and the move
//! from SQLite and a folder to PostgreSQL and a bucket. The archive's layout is in
//! `domain::backup`.
//!
//! **Export** reads every table in one snapshot (`db::operations::snapshot::ReadSnapshot`) while the portal
//! serves on, then the files those rows name; the ZIP file is written by a thread of its own
//! (the `zip` crate writes synchronously) and appears under its name only when complete.
//!
//! **Restore** (the CLI's `import`) first checks the manifest and the file list, then that the target database and
//! file store are empty (the cheap refusals), then reads the whole archive and checks every
//! part against the manifest's SHA-256. Only then does it write: the files (on disk into the staging folder, in a bucket to their keys), the rows in
//! one transaction, and after the commit the files into place. A failure or a SIGKILL before
//! the commit leaves the database without rows; what it left in the staging folder or the
//! bucket is taken over by the next import (or removed by the sweep), and a kill after the
//! commit is finished by the start-up sweep, which moves in the files whose rows committed.
//! The import says on its standard output when it starts the rows ("Lade die Zeilen …"), when
//! they are committed ("Die Zeilen sind gespeichert; die Dateien kommen an ihren Platz …") and
//! when the files are in place.
//!
//! **Memory of an import**, whatever the archive holds: at most [`ROWS_IN_FLIGHT_BYTES`]
//! (64 MiB) of rows, plus [`BYTES_PER_FILE`] per file of the archive, plus the program
//! ([`PROGRAM_BYTES`]); see `restore` for how.

mod export;
mod restore;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::domain::format;

pub use export::{ExportReport, export};
pub use restore::{
    BYTES_PER_FILE, PROGRAM_BYTES, ROWS_IN_FLIGHT_BYTES, RestoreReport, memory_bound, restore,
};

/// What a long step says on the terminal.
pub enum BackupProgress {
    /// A line that stays.
    Line(String),
    /// The state of a step, replaced by the next one.
    Status(String),
}

/// Where progress goes (the command line prints it).
pub type OnProgress = Arc<dyn Fn(BackupProgress) + Send + Sync>;

/// How often a step's status is said at most.
const STATUS_EVERY: Duration = Duration::from_millis(500);

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Says a status at most every [`STATUS_EVERY`].
struct Throttled {
    last: Option<Instant>,
}

impl Throttled {
    fn new() -> Throttled {
        Throttled { last: None }
    }

    fn due(&mut self) -> bool {
        let due = self.last.is_none_or(|at| at.elapsed() >= STATUS_EVERY);
        if due {
            self.last = Some(Instant::now());
        }
        due
    }
}

/// Bytes as the pages show them (`1,5 MiB`).
fn human_bytes(bytes: u64) -> String {
    format::file_size(i64::try_from(bytes).unwrap_or(i64::MAX))
}
