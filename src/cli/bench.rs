//! `tactus bench`: measurements of the whole service, reproducible by anyone.

use std::path::PathBuf;
use std::time::Duration;

use crate::bench::e2e::{E2eOptions, E2eReport, Transport, run_e2e};
use crate::bench::serve::{ServeOptions, Spread, run_serve};
use crate::bench::startup::{StartupOptions, run_startup};
use anyhow::Context;
use clap::{Args, Subcommand};
use tactus_board::event::Protocol;

use super::{Failure, Outcome};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Many tables in one process with simulated boards on pseudo-terminals,
    /// journal and audio rendering on: latency from a board event's last byte
    /// to its announcement, CPU time and peak memory.
    E2e(E2eArgs),
    /// A real `tactus serve` process: start-up time, and a board event to
    /// its announcement on the SSE stream over loopback.
    Serve(BenchServeArgs),
    /// Games carried out by simulated hands (touches, bounces, slides at
    /// human speed, clock presses, early replies) on peg, DGT and Millennium
    /// boards over pseudo-terminals: per kind of board, from the piece's
    /// last arrival (and the clock's press) to the move being known, and
    /// every move and touch checked.
    Hands(HandsArgs),
    /// How long a move's announcement lasts, per voice pack and per
    /// speaking rate (0.7 to 1.6), over the games given.
    Voice(VoiceArgs),
    /// A real `tactus serve` process: a move's answer time, alone and while
    /// a crowd (250 threads by default) reads the public routes.
    Readers(ReadersArgs),
    /// The peg board's own firmware in the RP2040 emulator, beside the
    /// simulated peg board, each under a real `tactus serve`: scan rate,
    /// a switch to its line on USB, a move's last peg to its announcement.
    /// Needs `scripts/firmware` and `npm ci --prefix tests/firmware`.
    Firmware(FirmwareArgs),
    /// A move to the first sample of its announcement at the table's sound
    /// device: a real `tactus serve` playing into a private PulseAudio's
    /// null sink through ALSA, recorded with parec (Debian's pulseaudio,
    /// pulseaudio-utils and libasound2-plugins).
    Sound(SoundArgs),
    /// A real `tactus serve` with many tables (50 by default) on simulated
    /// peg boards, idle: its CPU time (a share of one core) and wake-ups
    /// over ten seconds, read from /proc.
    Idle(IdleArgs),
    /// A server killed in the middle of a long event (by default nine
    /// rounds at 50 tables, about 40,000 events): process start to
    /// listening with every current game resumed.
    Startup(StartupArgs),
    /// A real `tactus serve` process (one table): the assistant's move
    /// answer time, quiet and under each connection flood of issue 43
    /// (4 × 256 live streams, idle connections, slow heads).
    Gate(GateArgs),
}

#[derive(Args)]
pub struct GateArgs {
    /// Moves sent in each condition.
    #[arg(long, default_value_t = 100)]
    moves: usize,
    /// A flood's connections from each of its four addresses.
    #[arg(long, default_value_t = 256)]
    per_address: usize,
    /// Milliseconds between two moves.
    #[arg(long, default_value_t = 50)]
    interval_ms: u64,
    /// The `tactus` executable started as the server (this one by
    /// default): another build's, to compare.
    #[arg(long)]
    bin: Option<PathBuf>,
    /// Voice pack name under voices/, or a path.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct VoiceArgs {
    /// Voice packs (names under voices/ or folders); the shipped four by
    /// default.
    #[arg(long, value_delimiter = ',', default_values = ["de-appendix-d", "en-appendix-d", "es-apendice-d", "es-nativo"])]
    voice: Vec<String>,
    /// PGN files whose every move is announced.
    #[arg(long, default_values = ["tests/fixtures/announcements/legal_mate.pgn", "tests/fixtures/announcements/reti_tartakower.pgn", "tests/fixtures/announcements/promotions.pgn", "tests/fixtures/announcements/disambiguation.pgn", "tests/fixtures/announcements/special_moves.pgn"])]
    games: Vec<PathBuf>,
    /// One JSON array instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ReadersArgs {
    /// Reader threads, each reading the public routes in a loop.
    #[arg(long, default_value_t = 250)]
    readers: usize,
    /// Plies measured alone, then as many with the readers.
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
pub struct FirmwareArgs {
    /// White's moves measured on each board.
    #[arg(long, default_value_t = 30)]
    moves: usize,
    /// The seed of the game and of the hands.
    #[arg(long, default_value_t = 34)]
    seed: u64,
    /// The repository, where target/firmware/peg-board.uf2 and
    /// tests/firmware are.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Voice pack name under voices/, or a path.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SoundArgs {
    /// The blind player's moves measured (each answered by the assistant).
    #[arg(long, default_value_t = 100)]
    moves: usize,
    /// The seed of the games' random moves.
    #[arg(long, default_value_t = 45)]
    seed: u64,
    /// Voice pack name under voices/, or a path.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct IdleArgs {
    /// Tables, each on a simulated peg board.
    #[arg(long, default_value_t = 50)]
    tables: usize,
    /// Seconds measured, once every board has connected.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// The server to measure (another build: an arm64 one runs under
    /// qemu-user through binfmt); this program by default.
    #[arg(long)]
    exe: Option<PathBuf>,
    /// Voice pack name under voices/, or a path.
    #[arg(long, default_value = "de-appendix-d")]
    voice: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct StartupArgs {
    /// Tables of the event.
    #[arg(long, default_value_t = 50)]
    tables: usize,
    /// Rounds played, the last under way.
    #[arg(long, default_value_t = 9)]
    rounds: usize,
    /// Plies of each finished game.
    #[arg(long, default_value_t = 86)]
    plies: usize,
    /// Starts of the server measured.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// The seed of the games' random moves.
    #[arg(long, default_value_t = 24)]
    seed: u64,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct HandsArgs {
    /// How many games.
    #[arg(long, default_value_t = 24)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 4)]
    jobs: usize,
    /// The run's seed (a random one by default; the report gives it).
    #[arg(long)]
    seed: Option<u64>,
    /// The settling time in milliseconds for every board; unset, each kind
    /// of board's default (peg 20, dgt and millennium 400).
    #[arg(long)]
    settle_ms: Option<u64>,
    /// The kinds of board played on, in turn.
    #[arg(long, value_delimiter = ',', default_values = ["peg", "dgt", "millennium"])]
    boards: Vec<BoardKind>,
    /// How they are played, in turn: `watch` (both sides on one board, as
    /// `tactus board watch` follows it), `table` (one player's board at a
    /// table: the blind player's peg board, a sighted opponent's electronic
    /// one).
    #[arg(long, value_delimiter = ',', default_values = ["watch", "table"])]
    modes: Vec<PlayMode>,
    /// PGN files whose games are played (every other game; the rest are
    /// random legal games).
    #[arg(long)]
    pgn: Vec<PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A kind of board for `bench hands`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BoardKind {
    Peg,
    Dgt,
    Millennium,
}

/// How a board is played in `bench hands`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayMode {
    Watch,
    Table,
}

#[derive(Args)]
pub struct BenchServeArgs {
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
    /// The boards' settling time in milliseconds (a served venue's peg
    /// boards default to 20, DGT and Millennium boards to 400; 0 measures
    /// the service alone).
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

pub fn run(command: BenchCommand) -> Outcome {
    match command {
        BenchCommand::E2e(args) => e2e(args)?,
        BenchCommand::Serve(args) => serve(args)?,
        BenchCommand::Hands(args) => return hands(args),
        BenchCommand::Startup(args) => startup(args)?,
        BenchCommand::Readers(args) => readers(args)?,
        BenchCommand::Firmware(args) => firmware(args)?,
        BenchCommand::Idle(args) => idle(args)?,
        BenchCommand::Sound(args) => sound(args)?,
        BenchCommand::Voice(args) => voice(args)?,
        BenchCommand::Gate(args) => gate(args)?,
    }
    Ok(())
}

/// This program, which the benchmarks start as a server.
/// A bench's report as one line of JSON, for scripts that keep figures.
fn print_json(report: &impl serde::Serialize) {
    println!("{}", serde_json::to_string(report).unwrap_or_default());
}

fn this_program() -> anyhow::Result<std::path::PathBuf> {
    std::env::current_exe().context("cannot find this program")
}

fn voice(args: VoiceArgs) -> anyhow::Result<()> {
    let rows = crate::bench::voice::run_voice(&args.voice, &args.games)?;
    if args.json {
        print_json(&rows);
    } else {
        println!("pack            rate  moves  median  mean    p90     max");
        for r in rows {
            println!(
                "{:<15} {:<4}  {:>5}  {:.2} s  {:.2} s  {:.2} s  {:.2} s",
                r.pack, r.rate, r.moves, r.median_s, r.mean_s, r.p90_s, r.max_s
            );
        }
    }
    Ok(())
}

fn readers(args: ReadersArgs) -> anyhow::Result<()> {
    use crate::bench::readers::{ReadersOptions, run_readers};
    let options = ReadersOptions {
        exe: this_program()?,
        readers: args.readers,
        plies: args.plies,
        voice: args.voice,
    };
    let r = run_readers(&options)?;
    if args.json {
        print_json(&r);
    } else {
        let line = |what: &str, s: &Spread| println!("{what}: {s}");
        line("a move's answer, alone", &r.alone);
        line(
            &format!("a move's answer, {} readers", r.readers),
            &r.with_readers,
        );
        println!(
            "reads meanwhile: {:.0} a second, {} answered 200, {} refused or cut",
            r.reads_per_s, r.reads_ok, r.reads_refused
        );
    }
    Ok(())
}

fn firmware(args: FirmwareArgs) -> anyhow::Result<()> {
    use crate::bench::firmware::{FirmwareOptions, run_firmware};
    let options = FirmwareOptions {
        exe: this_program()?,
        root: args.root,
        voice: args.voice,
        moves: args.moves,
        seed: args.seed,
    };
    let r = run_firmware(&options)?;
    if args.json {
        print_json(&r);
        return Ok(());
    }
    let f = &r.firmware;
    println!(
        "firmware in the emulator: {:.0} scans a second; a switch to its USB line: \
         p50 {:.1} ms, max {:.1} ms emulated ({} changes); real time p50 {:.1} ms, \
         p99 {:.1} ms, max {:.1} ms (the emulation at most {:.1} ms behind, {:.1} MIPS)",
        f.scans_per_s,
        f.switch_to_usb_emulated_p50_ms,
        f.switch_to_usb_emulated_max_ms,
        f.changes,
        f.switch_to_usb_real_p50_ms,
        f.switch_to_usb_real_p99_ms,
        f.switch_to_usb_real_max_ms,
        f.worst_lag_ms,
        f.mips
    );
    println!("a move's last step to its announcement, seed {}:", r.seed);
    println!(
        "  firmware in the emulator (settling {} ms): {}",
        r.firmware_settle_ms, r.firmware_move_known
    );
    println!(
        "  simulated peg board (settling {} ms):      {}",
        r.sim_settle_ms, r.sim_move_known
    );
    Ok(())
}

fn sound(args: SoundArgs) -> anyhow::Result<()> {
    use crate::bench::sound::{SoundOptions, run_sound};
    let options = SoundOptions {
        exe: this_program()?,
        moves: args.moves,
        seed: args.seed,
        voice: args.voice,
    };
    let r = run_sound(&options)?;
    if args.json {
        print_json(&r);
    } else {
        println!(
            "a move to its first sample at the sound device: {}, p90 {:.1} ms \
             ({} servers; the stream recovered {} times; {} of {} found sample for sample, \
             {} of them with their first samples skipped)",
            r.move_to_first_sample,
            r.p90_ms,
            r.servers,
            r.retried,
            r.matched,
            r.move_to_first_sample.n,
            r.onset_skipped
        );
        println!(
            "  to its first loud sample (above -40 dBFS):       {}, p90 {:.1} ms",
            r.move_to_first_loud, r.first_loud_p90_ms
        );
        println!(
            "  the move to its announcement on the live stream: {}",
            r.move_to_event
        );
        println!(
            "  the announcement to its first sample:            {}",
            r.event_to_first_sample
        );
    }
    Ok(())
}

fn idle(args: IdleArgs) -> anyhow::Result<()> {
    use crate::bench::idle::{IdleOptions, run_idle};
    let options = IdleOptions {
        exe: match args.exe {
            Some(exe) => exe,
            None => this_program()?,
        },
        tables: args.tables,
        seconds: args.seconds,
        voice: args.voice,
    };
    let r = run_idle(&options)?;
    if args.json {
        print_json(&r);
    } else {
        println!(
            "{} idle tables on simulated peg boards, {:.1} s: CPU {:.3} s, {:.2}% of a core; \
             {:.0} wake-ups a second over {} threads; {:.0} MB resident",
            r.tables,
            r.seconds,
            r.cpu_s,
            r.cpu_percent_of_a_core,
            r.wakeups_per_s,
            r.threads,
            r.rss_mb
        );
    }
    Ok(())
}

fn startup(args: StartupArgs) -> anyhow::Result<()> {
    let exe = this_program()?;
    let options = StartupOptions {
        exe,
        tables: args.tables,
        rounds: args.rounds,
        plies: args.plies,
        runs: args.runs,
        seed: args.seed,
    };
    let r = run_startup(&options)?;
    if args.json {
        print_json(&r);
    } else {
        let s = &r.startup;
        println!(
            "{} tables, {} rounds: {} games, {} events in the journal\n\
             start-up to listening, every current game resumed: n {}, min {:.1} ms, \
             p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms\n\
             in-process: current games read and replayed {:.1} ms; every game {:.1} ms",
            r.tables,
            r.rounds,
            r.games,
            r.events,
            s.n,
            s.min_ms,
            s.p50_ms,
            s.p99_ms,
            s.max_ms,
            r.current_games_ms,
            r.whole_history_ms
        );
    }
    Ok(())
}

fn hands(args: HandsArgs) -> Outcome {
    use tactus_testkit::hands::{HandsOptions, run_hands};
    if let Some(settle_ms) = args.settle_ms.filter(|&ms| ms > 5_000) {
        return Err(anyhow::anyhow!("--settle-ms {settle_ms}: at most 5000").into());
    }
    let corpus = hands_corpus(&args.pgn)?;
    let seed = args.seed.unwrap_or_else(|| {
        let mut b = [0u8; 8];
        let _ = getrandom::fill(&mut b);
        u64::from_le_bytes(b) >> 16
    });
    let options = HandsOptions {
        seed,
        games: args.games,
        only: None,
        jobs: args.jobs,
        settle: args.settle_ms.map(Duration::from_millis),
        mix: hands_mix(&args),
    };
    let r = run_hands(&options, corpus);
    if args.json {
        print_json(&r);
    } else {
        print_hands(&r, options.games);
    }
    if r.failures.is_empty() {
        Ok(())
    } else {
        // The games that failed are listed above; the run itself failed.
        Err(Failure::Failed(anyhow::anyhow!(
            "{} of {} games failed",
            r.failures.len(),
            r.games
        )))
    }
}

/// The games of the PGN files `--pgn` names.
fn hands_corpus(pgn: &[PathBuf]) -> anyhow::Result<Vec<tactus_testkit::hands::HandsGame>> {
    let mut corpus = Vec::new();
    for path in pgn {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        corpus.extend(tactus_testkit::hands::games_from_pgn(
            &path.display().to_string(),
            &bytes,
        ));
    }
    Ok(corpus)
}

/// The kinds of board and the ways of playing them that `--boards` and
/// `--modes` ask for.
fn hands_mix(args: &HandsArgs) -> tactus_testkit::hands::Mix {
    tactus_testkit::hands::Mix {
        boards: args
            .boards
            .iter()
            .map(|b| match b {
                BoardKind::Peg => Protocol::Peg,
                BoardKind::Dgt => Protocol::Dgt,
                BoardKind::Millennium => Protocol::Millennium,
            })
            .collect(),
        watch: args.modes.contains(&PlayMode::Watch),
        table: args.modes.contains(&PlayMode::Table),
    }
}

/// The hands' report as text: the run, each kind of board, each failure.
fn print_hands(r: &tactus_testkit::hands::HandsReport, games: usize) {
    println!(
        "seed {} ({} games, {} at once)\n\
         {} games, {} plies, {} touches, {} failed, in {:.0} s",
        r.seed,
        games,
        r.jobs,
        r.games,
        r.plies,
        r.touches,
        r.failures.len(),
        r.seconds,
    );
    for b in &r.boards {
        println!(
            "{}: settling {} ms, {} games, {} plies, {} wrong, {} missed, {} other failures, \
             {} corrected slides\n  \
             piece's last arrival to the move known: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} moves)",
            b.board,
            b.settle_ms,
            b.games,
            b.plies,
            b.wrong,
            b.missed,
            b.other_failures,
            b.corrections,
            b.from_arrival.p50_ms,
            b.from_arrival.p99_ms,
            b.from_arrival.max_ms,
            b.from_arrival.count,
        );
        if b.from_press.count > 0 {
            println!(
                "  clock press to the move known: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} presses)",
                b.from_press.p50_ms, b.from_press.p99_ms, b.from_press.max_ms, b.from_press.count,
            );
        }
    }
    for f in &r.failures {
        println!(
            "failed: game {} ({}, {}, {}): {}",
            f.game, f.name, f.protocol, f.mode, f.error
        );
    }
}

fn e2e(args: E2eArgs) -> anyhow::Result<()> {
    if args.ply_ms == 0 {
        anyhow::bail!("--ply-ms must be at least 1");
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
    let report = run_e2e(&options)?;
    if args.json {
        print_json(&report);
    } else {
        print!("{}", text(&report));
    }
    Ok(())
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

fn serve(args: BenchServeArgs) -> anyhow::Result<()> {
    let exe = this_program()?;
    let options = ServeOptions {
        exe,
        runs: args.runs,
        plies: args.plies,
        voice: args.voice,
    };
    let r = run_serve(&options)?;
    if args.json {
        print_json(&r);
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
    Ok(())
}

fn gate(args: GateArgs) -> anyhow::Result<()> {
    use crate::bench::gate::{GateOptions, run_gate};
    let options = GateOptions {
        exe: args.bin.map_or_else(this_program, Ok)?,
        moves: args.moves,
        per_address: args.per_address,
        interval: Duration::from_millis(args.interval_ms),
        voice: args.voice,
    };
    let r = run_gate(&options)?;
    if args.json {
        print_json(&r);
        return Ok(());
    }
    println!(
        "{}: the assistant's move, {} per condition {} ms apart, floods of {} x {} connections",
        r.exe, options.moves, r.interval_ms, r.addresses, r.per_address
    );
    println!(
        "condition   flood  open   200   503  other  none   p50 ms   p99 ms   max ms  streams held/refused"
    );
    for c in &r.conditions {
        println!(
            "{:<10} {:>6} {:>5} {:>5} {:>5} {:>6} {:>5} {:>8.1} {:>8.1} {:>8.1}  {}/{}",
            c.condition.name(),
            c.flood,
            c.flood_open,
            c.answered_200,
            c.answered_503,
            c.answered_other,
            c.no_answer,
            c.answer.p50_ms,
            c.answer.p99_ms,
            c.answer.max_ms,
            c.streams_held,
            c.streams_refused,
        );
    }
    Ok(())
}
