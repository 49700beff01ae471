use clap::Parser;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = aktionsportal::cli::Cli::parse();
    if let Some(code) = cli.run_without_runtime() {
        std::process::exit(code);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    std::process::exit(runtime.block_on(aktionsportal::cli::run(cli)));
}
