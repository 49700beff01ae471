use clap::Parser;

#[tokio::main]
async fn main() {
    let cli = aktionsportal::cli::Cli::parse();
    std::process::exit(aktionsportal::cli::run(cli).await);
}
