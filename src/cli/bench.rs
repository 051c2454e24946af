//! `tactus bench`: measurements of the whole service, reproducible by anyone.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use tactus::bench::e2e::{E2eOptions, E2eReport, Transport, run_e2e};
use tactus::bench::serve::{ServeOptions, Spread, run_serve};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Many tables in one process with simulated boards on pseudo-terminals,
    /// journal and audio rendering on: latency from a board event's last byte
    /// to its announcement, CPU time and peak memory.
    E2e(E2eArgs),
    /// A real `tactus serve` process: start-up time, and a board event to
    /// its announcement on the SSE stream over loopback.
    Serve(ServeArgs),
}

#[derive(Args)]
pub struct ServeArgs {
    /// How many times the server is started.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Plies of the measured game.
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Voice pack name under voices/, or a path.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct E2eArgs {
    /// How many tables play at once.
    #[arg(long, default_value_t = 10)]
    tables: usize,
    /// How long they play, in seconds (set-up not counted).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Milliseconds between two plies at a table (500: each player moves
    /// every second, faster than any blitz game).
    #[arg(long, default_value_t = 500)]
    ply_ms: u64,
    /// The boards' settling time in milliseconds (boards default to 200;
    /// 0 measures the service alone).
    #[arg(long, default_value_t = 0)]
    settle_ms: u64,
    /// Voice pack whose clips are rendered.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// Folder for the journal (a temporary one, removed after, by default).
    #[arg(long)]
    data: Option<PathBuf>,
    /// How the server reaches the boards: `pty` (the pseudo-terminal, as a
    /// USB cable), `tcp` or `rfc2217` (each board behind its own Debian
    /// ser2net on loopback, as a table computer in the hall serves it).
    #[arg(long, default_value = "pty")]
    board: Transport,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(command: BenchCommand) -> ExitCode {
    match command {
        BenchCommand::E2e(args) => e2e(args),
        BenchCommand::Serve(args) => serve(args),
    }
}

fn e2e(args: E2eArgs) -> ExitCode {
    if args.ply_ms == 0 {
        eprintln!("tactus bench e2e: --ply-ms must be at least 1");
        return ExitCode::from(2);
    }
    let options = E2eOptions {
        tables: args.tables,
        seconds: args.seconds,
        ply: Duration::from_millis(args.ply_ms),
        settle: Duration::from_millis(args.settle_ms),
        voice: args.voice,
        data: args.data,
        transport: args.board,
    };
    match run_e2e(&options) {
        Ok(report) => {
            if args.json {
                println!("{}", serde_json::to_string(&report).unwrap_or_default());
            } else {
                print!("{}", text(&report));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tactus bench e2e: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn text(r: &E2eReport) -> String {
    format!(
        "{} tables, boards over {}, {:.1} s, a ply every {} ms per table, settling time {} ms\n\
         {} plies in {} games; {} board events announced, {} lost\n\
         board event to announcement: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n\
         CPU {:.2} s ({:.0}% of one core), ser2net CPU {:.2} s, peak RSS {:.1} MB\n",
        r.tables,
        match r.transport {
            Transport::Pty => "pseudo-terminals",
            Transport::Tcp => "ser2net raw TCP",
            Transport::Rfc2217 => "ser2net RFC 2217",
        },
        r.seconds,
        r.ply_ms,
        r.settle_ms,
        r.plies,
        r.games,
        r.events,
        r.lost,
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        r.cpu_s,
        100.0 * r.cpu_s / r.seconds.max(1e-9),
        r.relay_cpu_s,
        r.rss_mb,
    )
}

fn serve(args: ServeArgs) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tactus bench serve: cannot find this program: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = ServeOptions {
        exe,
        runs: args.runs,
        plies: args.plies,
        voice: args.voice,
    };
    match run_serve(&options) {
        Ok(r) => {
            if args.json {
                println!("{}", serde_json::to_string(&r).unwrap_or_default());
            } else {
                let line = |what: &str, s: &Spread| {
                    format!(
                        "{what}: n {}, min {:.2} ms, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n",
                        s.n, s.min_ms, s.p50_ms, s.p99_ms, s.max_ms
                    )
                };
                println!(
                    "{}{}{}server peak RSS {:.1} MB (one table)",
                    line("start-up to listening", &r.startup),
                    line(
                        &format!("board move to SSE (incl. {} ms settling)", r.settle_ms),
                        &r.move_to_sse
                    ),
                    line("frame button to SSE (clock)", &r.button_to_sse),
                    r.server_rss_mb
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tactus bench serve: {e:#}");
            ExitCode::from(2)
        }
    }
}
