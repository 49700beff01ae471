use aktionsportal::cli::Command;
use clap::Parser;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = aktionsportal::cli::Cli::parse();
    if matches!(cli.command, Some(Command::Import { .. })) {
        give_back_freed_blocks_at_once();
    }
    if let Some(code) = cli.run_without_runtime() {
        std::process::exit(code);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    std::process::exit(runtime.block_on(aktionsportal::cli::run(cli)));
}

/// mimalloc's option `purge_delay` (its number in mimalloc v3's `mi_option_e`, which
/// `libmimalloc-sys` names only for v2).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// An import promises to stay within a memory bound (`memory_bound`, README), and it moves
/// rows of up to 4 MiB each. mimalloc keeps a freed block of that size resident for a while
/// (`purge_delay`) before it gives it back, so the resident size of an import depended on how
/// many such rows passed within that delay, that is on the machine's load (`tests/backup.rs`
/// once saw 129 MiB under load where it sees 105 MiB alone). An import gives them back at
/// once: it frees a few hundred large blocks a second at most, a few system calls.
fn give_back_freed_blocks_at_once() {
    // SAFETY: sets one of mimalloc's options before anything else runs; mimalloc reads it
    // whenever it purges, and the value 0 is documented ("immediate purging").
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}
