//! The `tactus` command line: its commands ([`cli`]) and, with the `bench`
//! feature, the benchmarks `tactus bench` runs ([`bench`](mod@bench)),
//! which drive the server library from outside as a venue would.

#[cfg(feature = "bench")]
mod bench;
mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
