//! Rendering in a child process: the portal's own binary, started as
//! `aktionsportal preview-render --kind KIND`, reads the file on standard input and writes
//! both previews on standard output. The child limits its own memory (address space) and CPU
//! time before it reads anything, and the parent kills it at a deadline. A file that makes
//! the renderer loop, recurse without end or allocate without bound ends the child, never
//! the portal; the parent logs one line and the file keeps its type icon.
//!
//! The child holds nothing worth stealing to a flaw in a decoder: it starts with an empty
//! environment (no `DATABASE_URL`, no S3, Brevo, SMTP or OIDC secret; it reads no variable
//! anyway, and without `HOME` it draws text with the system's fonts only), in an empty
//! folder made for this one render and removed after it, and its only input is standard
//! input (the portal opens its files close-on-exec; the child closes any other descriptor
//! it inherited before it reads anything).
//!
//! Output: for the thumbnail, then the large preview, the width, the height and the length
//! of the JPEG as little-endian `u32`, then the JPEG bytes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

use super::{DrawingKind, Preview, Rendered};

/// The subcommand the child runs.
pub const SUBCOMMAND: &str = "preview-render";
/// The most a child may write (two JPEGs of 1,200 × 3,600 pixels are far below).
const MAX_OUTPUT: usize = 32 * 1024 * 1024;

/// How previews are rendered: which binary, with what limits, how many at once.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The portal's binary (its `preview-render` subcommand).
    pub exe: PathBuf,
    /// Wall-clock time of one file; also the child's CPU-time limit.
    pub timeout: Duration,
    /// The child's address-space limit.
    pub memory_bytes: u64,
    /// Larger files get no preview (the child would have to hold them whole).
    pub max_input_bytes: u64,
}

impl Limits {
    /// The limits of the configuration; `None` when previews are switched off, or when the
    /// renderer is not configured and the running program is not the portal (a test runner).
    pub fn from_config(config: &crate::config::Config) -> Option<Limits> {
        if !config.previews {
            return None;
        }
        let exe = match &config.preview_renderer {
            Some(exe) => exe.clone(),
            None => {
                let exe = std::env::current_exe().ok()?;
                let is_portal = exe
                    .file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| name.starts_with("aktionsportal"));
                if !is_portal {
                    tracing::warn!(exe = %exe.display(), "no preview renderer: set AP_PREVIEW_RENDERER");
                    return None;
                }
                exe
            }
        };
        Some(Limits {
            exe,
            timeout: Duration::from_secs(config.preview_timeout_secs),
            memory_bytes: config.preview_memory_mb.saturating_mul(1024 * 1024),
            max_input_bytes: config.preview_max_mb.saturating_mul(1024 * 1024),
        })
    }
}

/// Why a render gave up.
#[derive(Debug, thiserror::Error)]
pub enum RenderFailure {
    #[error("no preview for this file: {0}")]
    Refused(String),
    #[error("gave up after {0:?}")]
    Timeout(Duration),
    #[error("the renderer ended abnormally: {0}")]
    Crashed(String),
    #[error("the renderer could not be started: {0}")]
    Spawn(std::io::Error),
}

/// Renders previews in child processes, at most one per core at a time.
#[derive(Clone, Debug)]
pub struct Renderer {
    limits: Arc<Limits>,
    places: Arc<Semaphore>,
}

impl Renderer {
    pub fn new(mut limits: Limits) -> Renderer {
        // The child starts in a folder of its own: a relative path to the binary would be
        // looked up there (a bare name is still looked up on the portal's PATH).
        if limits.exe.is_relative()
            && limits.exe.components().count() > 1
            && let Ok(exe) = std::path::absolute(&limits.exe)
        {
            limits.exe = exe;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Renderer {
            limits: Arc::new(limits),
            places: Arc::new(Semaphore::new(cores)),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Both previews of `bytes`, rendered in a child process within the limits.
    pub async fn render(
        &self,
        bytes: Vec<u8>,
        kind: DrawingKind,
    ) -> Result<Rendered, RenderFailure> {
        if bytes.len() as u64 > self.limits.max_input_bytes {
            return Err(RenderFailure::Refused(format!(
                "{} bytes, more than the limit",
                bytes.len()
            )));
        }
        let _place = self
            .places
            .acquire()
            .await
            .map_err(|_| RenderFailure::Crashed("renderer closed".into()))?;
        let limits = &self.limits;
        let folder = Scratch::new().map_err(RenderFailure::Spawn)?;
        let mut child = command(limits, kind, folder.path())
            .spawn()
            .map_err(RenderFailure::Spawn)?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let work = async {
            // A child that dies early closes its input: the write fails, the exit tells why.
            let feed = async move {
                let _ = stdin.write_all(&bytes).await;
                drop(stdin);
            };
            let mut output = Vec::new();
            let read = async {
                (&mut stdout)
                    .take(MAX_OUTPUT as u64 + 1)
                    .read_to_end(&mut output)
                    .await
            };
            let mut message = Vec::new();
            let mut limited_stderr = (&mut stderr).take(2048);
            let complain = limited_stderr.read_to_end(&mut message);
            let (_, read, _) = tokio::join!(feed, read, complain);
            read.map_err(|e| RenderFailure::Crashed(e.to_string()))?;
            let status = child
                .wait()
                .await
                .map_err(|e| RenderFailure::Crashed(e.to_string()))?;
            let message = String::from_utf8_lossy(&message).trim().to_string();
            match status.code() {
                Some(0) => {
                    parse(&output).ok_or_else(|| RenderFailure::Crashed("malformed output".into()))
                }
                Some(2) => Err(RenderFailure::Refused(message)),
                _ => Err(RenderFailure::Crashed(format!("{status}: {message}"))),
            }
        };
        match tokio::time::timeout(limits.timeout, work).await {
            Ok(result) => result,
            // Dropping the child (kill_on_drop) ends it.
            Err(_) => Err(RenderFailure::Timeout(limits.timeout)),
        }
    }
}

/// The child's command line: the limits as arguments, nothing of the portal's environment,
/// `folder` as its working folder, and pipes for its three standard streams.
fn command(limits: &Limits, kind: DrawingKind, folder: &Path) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(&limits.exe);
    command
        .arg(SUBCOMMAND)
        .args(["--kind", kind.as_str()])
        .arg("--memory-mb")
        .arg((limits.memory_bytes / (1024 * 1024)).max(1).to_string())
        .arg("--cpu-secs")
        .arg(limits.timeout.as_secs().max(1).to_string())
        .env_clear()
        .current_dir(folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // The address-space limit is set before the child's program starts, not only by the
    // child itself: the portal's allocator (mimalloc) reserves address space when it starts,
    // and a reservation made before a lower limit leaves no room under it for anything after
    // (2 of 5 demo seeds lost a preview). Under the limit from the start, the allocator reserves
    // what fits.
    // The same bytes as the child's own limit from `--memory-mb`.
    let memory = (limits.memory_bytes / (1024 * 1024)).max(1) * 1024 * 1024;
    // SAFETY: between fork and exec only `setrlimit` runs, which is async-signal-safe and
    // allocates nothing.
    unsafe {
        command.pre_exec(move || rlimit::setrlimit(rlimit::Resource::AS, memory, memory));
    }
    command
}

/// An empty folder for one render (only the portal's user may enter it), removed with
/// whatever is in it when the render ends, however it ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        use std::os::unix::fs::DirBuilderExt;
        let path = std::env::temp_dir().join(format!(
            "aktionsportal-preview-{}-{:016x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        // `create`, not `create_all`: a folder somebody made beforehand is refused.
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        Ok(Scratch(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_dir_all(&self.0) {
            tracing::warn!(error = %err, folder = %self.0.display(), "preview folder not removed");
        }
    }
}

fn parse(output: &[u8]) -> Option<Rendered> {
    if output.len() > MAX_OUTPUT {
        return None;
    }
    let mut rest = output;
    let take = |rest: &mut &[u8]| -> Option<Preview> {
        let word = |rest: &mut &[u8]| -> Option<u32> {
            let (head, tail) = rest.split_at_checked(4)?;
            *rest = tail;
            Some(u32::from_le_bytes(head.try_into().ok()?))
        };
        let width = word(rest)?;
        let height = word(rest)?;
        let len = word(rest)? as usize;
        let (jpeg, tail) = rest.split_at_checked(len)?;
        *rest = tail;
        Some(Preview {
            jpeg: jpeg.to_vec(),
            width,
            height,
        })
    };
    let thumb = take(&mut rest)?;
    let large = take(&mut rest)?;
    rest.is_empty().then_some(Rendered { thumb, large })
}

fn write_preview(out: &mut impl Write, preview: &Preview) -> std::io::Result<()> {
    out.write_all(&preview.width.to_le_bytes())?;
    out.write_all(&preview.height.to_le_bytes())?;
    out.write_all(&(preview.jpeg.len() as u32).to_le_bytes())?;
    out.write_all(&preview.jpeg)
}

/// Closes every descriptor but standard input, output and error. The portal opens its own
/// files close-on-exec, but whatever started the portal may have left descriptors open
/// (a jobserver's pipe, a socket of the service manager), and they would pass on to here.
fn close_inherited_descriptors() -> std::io::Result<()> {
    use std::os::fd::{FromRawFd, OwnedFd};
    let open: Vec<i32> = std::fs::read_dir("/proc/self/fd")?
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|fd| *fd > 2)
        .collect();
    for fd in open {
        // The listing's own descriptor is closed by now: only those still open are closed.
        if std::fs::read_link(format!("/proc/self/fd/{fd}")).is_err() {
            continue;
        }
        // SAFETY: this runs first in a single-threaded child that has opened nothing itself;
        // the descriptor is open, inherited, and owned by nothing else in this process.
        drop(unsafe { OwnedFd::from_raw_fd(fd) });
    }
    Ok(())
}

/// The child's side (`aktionsportal preview-render`): limits itself, renders standard input
/// and writes the previews. Exit code 0: previews written; 2: the file has none (the reason
/// on standard error); anything else: the child failed.
pub fn serve_one(kind: &str, memory_mb: u64, cpu_secs: u64) -> i32 {
    let Some(kind) = DrawingKind::parse(kind) else {
        eprintln!("unknown kind {kind}");
        return 64;
    };
    if let Err(err) = close_inherited_descriptors() {
        eprintln!("descriptors not closed: {err}");
        return 70;
    }
    let memory = memory_mb.saturating_mul(1024 * 1024);
    if let Err(err) = rlimit::setrlimit(rlimit::Resource::AS, memory, memory)
        .and_then(|()| rlimit::setrlimit(rlimit::Resource::CPU, cpu_secs, cpu_secs + 1))
    {
        eprintln!("limits not set: {err}");
        return 70;
    }
    let mut bytes = Vec::new();
    if let Err(err) = std::io::stdin().lock().read_to_end(&mut bytes) {
        eprintln!("input not read: {err}");
        return 74;
    }
    match super::render(&bytes, kind) {
        Ok(rendered) => {
            let mut out = std::io::stdout().lock();
            let written = write_preview(&mut out, &rendered.thumb)
                .and_then(|()| write_preview(&mut out, &rendered.large))
                .and_then(|()| out.flush());
            match written {
                Ok(()) => 0,
                Err(err) => {
                    eprintln!("output not written: {err}");
                    74
                }
            }
        }
        Err(err) => {
            eprintln!("{err}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the portal's binary: tells on standard error what it was given (its
    /// exported variables, its folder and what is in it, its first input line) and exits 2,
    /// so the parent reports it as [`RenderFailure::Refused`] with that text.
    const TELLER: &str = r#"#!/bin/sh
exec 1>&2
export -p
echo "folder=$(pwd)"
for entry in * .*; do
    [ -e "$entry" ] && [ "$entry" != . ] && [ "$entry" != .. ] && echo "entry=$entry"
done
read -r line
echo "input=$line"
exit 2
"#;

    #[tokio::test]
    async fn the_child_gets_no_environment_and_an_empty_folder_that_goes_after_it() {
        use std::os::unix::fs::PermissionsExt;
        let bin = tempfile::tempdir().unwrap();
        let exe = bin.path().join("teller");
        std::fs::write(&exe, TELLER).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        // The test runner's environment is not empty (CARGO_*, PATH, HOME, …), and the
        // portal's working folder is not the child's.
        assert!(std::env::vars_os().any(|(name, _)| name == "PATH"));
        let renderer = Renderer::new(Limits {
            exe,
            timeout: Duration::from_secs(10),
            memory_bytes: 256 * 1024 * 1024,
            max_input_bytes: 1024,
        });
        let mut attempts = 0;
        let told = loop {
            match renderer.render(b"zeile\n".to_vec(), DrawingKind::Svg).await {
                Err(RenderFailure::Refused(told)) => break told,
                // "Text file busy": a process another test forked at that moment still held
                // the script open for writing; it is gone a moment later.
                Err(RenderFailure::Spawn(err))
                    if err.raw_os_error() == Some(26) && attempts < 20 =>
                {
                    attempts += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => panic!("{other:?}"),
            }
        };
        let lines: Vec<&str> = told.lines().collect();
        // Only what the shell sets itself (dash: PWD; bash also OLDPWD, SHLVL).
        let inherited: Vec<&&str> = lines
            .iter()
            .filter(|line| line.starts_with("export ") || line.starts_with("declare -x "))
            .filter(|line| {
                let name = line
                    .trim_start_matches("export ")
                    .trim_start_matches("declare -x ")
                    .split('=')
                    .next()
                    .unwrap_or_default();
                !["PWD", "OLDPWD", "SHLVL", "_"].contains(&name)
            })
            .collect();
        assert!(inherited.is_empty(), "{told}");
        let folder = lines
            .iter()
            .find_map(|line| line.strip_prefix("folder="))
            .unwrap_or_else(|| panic!("{told}"));
        let folder = Path::new(folder);
        assert!(
            folder.starts_with(std::env::temp_dir().canonicalize().unwrap())
                || folder.starts_with(std::env::temp_dir()),
            "{told}"
        );
        assert_ne!(folder, std::env::current_dir().unwrap().as_path());
        assert!(
            !lines.iter().any(|line| line.starts_with("entry=")),
            "{told}"
        );
        assert!(lines.contains(&"input=zeile"), "{told}");
        // The folder was made for this render and is gone with it.
        assert!(!folder.exists(), "{} left behind", folder.display());
    }

    #[test]
    fn the_output_format_reads_back_and_refuses_anything_else() {
        let rendered = Rendered {
            thumb: Preview {
                jpeg: vec![1, 2, 3],
                width: 320,
                height: 200,
            },
            large: Preview {
                jpeg: vec![4; 10],
                width: 1200,
                height: 750,
            },
        };
        let mut out = Vec::new();
        write_preview(&mut out, &rendered.thumb).unwrap();
        write_preview(&mut out, &rendered.large).unwrap();
        assert_eq!(parse(&out), Some(rendered));
        assert_eq!(parse(&out[..out.len() - 1]), None);
        let mut longer = out.clone();
        longer.push(0);
        assert_eq!(parse(&longer), None);
        assert_eq!(parse(&[]), None);
        let mut lying = out.clone();
        lying[8] = 0xFF;
        assert_eq!(parse(&lying), None);
    }
}
