//! `tactus board sim`, `tactus board watch` and `tactus board holes`: a
//! simulated board on a pseudo-terminal, a watcher that follows a game
//! played on a board, and the wiring check of a newly built board.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use serde_json::json;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use tactus_board::event::{BoardEvent, ClockMessage, Protocol};
use tactus_board::follow::Fixes;
use tactus_board::hands::{Hands, Timing};
use tactus_board::holes::{self, HoleCheck};
use tactus_board::infer::{Inference, Inferred, MoveRecord, Settings, promotion_button};
use tactus_board::link::Port;
use tactus_board::serial::{Driver, DriverConfig, DriverEvent};
use tactus_board::sim::Simulator;

use super::{Failure, Outcome};

#[derive(Clone, Copy, ValueEnum)]
pub enum ProtocolArg {
    Peg,
    Dgt,
    Millennium,
}

impl From<ProtocolArg> for Protocol {
    fn from(p: ProtocolArg) -> Protocol {
        match p {
            ProtocolArg::Peg => Protocol::Peg,
            ProtocolArg::Dgt => Protocol::Dgt,
            ProtocolArg::Millennium => Protocol::Millennium,
        }
    }
}

#[derive(Subcommand)]
pub enum BoardCommand {
    /// Simulate a board on a pseudo-terminal: prints the path to connect to,
    /// then reads commands on standard input (`lift e2`, `put e4 [Q]`,
    /// `move e2e4 [last]`, `bounce e4`, `scan`, `button 1`, `garbage`,
    /// `unplug`, `replug`, `board`, `leds`).
    Sim {
        #[arg(long, value_enum)]
        protocol: ProtocolArg,
        /// The position on the board (FEN or board FEN); default the start.
        #[arg(long)]
        fen: Option<String>,
        /// Keep a symlink here pointing at the terminal (it follows replugs).
        #[arg(long)]
        link: Option<PathBuf>,
        /// Carry out `move UCI` (a legal move of the game from --fen) as a
        /// player's hands do, seeded: touches, bounces, captures in either
        /// order, castling either way with pauses, wrong holes, slides and
        /// dumps (DGT), in real time. The same seed, the same hands.
        #[arg(long, value_name = "SEED")]
        hands: Option<u64>,
    },
    /// Follow a game played on one board (both sides) and print one line per
    /// event.
    Watch {
        #[arg(long, value_enum)]
        protocol: ProtocolArg,
        /// The board's port: a serial device (or pseudo-terminal), or a
        /// port served over the network, tcp://HOST:PORT (raw) or
        /// rfc2217://HOST:PORT (telnet, speed and framing set from here).
        #[arg(long)]
        port: Port,
        /// The line speed; default the protocol's (peg and DGT 9600,
        /// millennium 38400).
        /// Not with tcp://, where the far end sets it.
        #[arg(long)]
        baud: Option<u32>,
        /// The starting position; default the standard start.
        #[arg(long)]
        fen: Option<String>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        /// Settling time, in milliseconds; default the kind of board's
        /// (peg 20: bouncing contacts; dgt and millennium 400: pieces slid
        /// by hand).
        #[arg(long)]
        settle_ms: Option<u64>,
    },
    /// Check a newly built board's wiring: seat a peg in every hole and
    /// lift it again; each hole is said the first time it is seen closed
    /// and open, and the holes never seen closed or never seen open are
    /// named at the end (exit status 2 if any).
    Holes {
        #[arg(long, value_enum, default_value = "peg")]
        protocol: ProtocolArg,
        /// The board's port, as for `watch`.
        #[arg(long)]
        port: Port,
        /// The line speed; default the protocol's.
        #[arg(long)]
        baud: Option<u32>,
        /// How long to wait for every hole (1 to 3600 seconds).
        #[arg(long, default_value_t = 600)]
        seconds: u64,
    },
}

/// Runs a `board` subcommand. Bad input: message on stderr, status 2.
pub fn run(cmd: BoardCommand) -> Outcome {
    let outcome = match cmd {
        BoardCommand::Sim {
            protocol,
            fen,
            link,
            hands,
        } => sim(protocol.into(), fen.as_deref(), link, hands),
        BoardCommand::Watch {
            protocol,
            port,
            baud,
            fen,
            json,
            settle_ms,
        } => {
            let protocol: Protocol = protocol.into();
            let settle_ms = settle_ms
                .unwrap_or(tactus_board::infer::default_settle(protocol).as_millis() as u64);
            watch(protocol, port, baud, fen.as_deref(), json, settle_ms)
        }
        BoardCommand::Holes {
            protocol,
            port,
            baud,
            seconds,
        } => return holes(protocol.into(), port, baud, seconds),
    };
    outcome?;
    Ok(())
}

/// `tactus board holes`: follows the board until every hole has been seen
/// closed and open, the time runs out or Ctrl-C; names what was not seen.
fn holes(protocol: Protocol, port: Port, baud: Option<u32>, seconds: u64) -> Outcome {
    if !(1..=3600).contains(&seconds) {
        return Err(anyhow::anyhow!("--seconds {seconds}: 1 to 3600").into());
    }
    if baud == Some(0) {
        return Err(anyhow::anyhow!("--baud must be positive").into());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    let mut config = DriverConfig::new(port, protocol);
    config.baud = baud.unwrap_or(protocol.default_baud());
    let mut driver = runtime
        .block_on(async { Driver::spawn(config) })
        .map_err(|e| anyhow::anyhow!("cannot start the driver: {e}"))?;
    println!("seat a peg in every hole and lift it again; {seconds} s");
    let _ = std::io::stdout().flush();
    let mut check = HoleCheck::default();
    runtime.block_on(async {
        let deadline = tokio::time::sleep(Duration::from_secs(seconds));
        tokio::pin!(deadline);
        while !check.done() {
            let stamped = tokio::select! {
                s = driver.next() => s,
                _ = &mut deadline => break,
                _ = tokio::signal::ctrl_c() => break,
            };
            let Some(stamped) = stamped else { break };
            let DriverEvent::Board(event) = stamped.event else {
                continue;
            };
            if let BoardEvent::Disconnected(reason) = &event {
                println!("disconnected ({reason})");
            }
            let first = check.observe(&event);
            let (closed, open) = check.counts();
            for f in first
                .iter()
                .filter(|_| !matches!(event, BoardEvent::Scan(_)))
            {
                let state = if f.closed { "closes" } else { "opens" };
                println!(
                    "{} {state} ({closed} of 64 seen closed, {open} of 64 seen open)",
                    f.square
                );
            }
            if matches!(event, BoardEvent::Scan(_)) {
                println!("scan: {closed} of 64 seen closed, {open} of 64 seen open");
            }
            let _ = std::io::stdout().flush();
        }
    });
    if check.done() {
        println!("every hole closes and opens");
        return Ok(());
    }
    if !check.never_closed().is_empty() {
        println!("never closed: {}", holes::names(check.never_closed()));
    }
    if !check.never_open().is_empty() {
        println!("never opened: {}", holes::names(check.never_open()));
    }
    Err(Failure::Said)
}

/// What is wrong with the command's input.
fn bad(msg: impl std::fmt::Display) -> anyhow::Result<()> {
    Err(anyhow::anyhow!("{msg}"))
}

fn parse_position(fen: Option<&str>) -> anyhow::Result<Chess> {
    let Some(fen) = fen else {
        return Ok(Chess::default());
    };
    let parsed: Fen = fen.parse().with_context(|| format!("--fen {fen:?}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .with_context(|| format!("--fen {fen:?}"))
}

fn sim(
    protocol: Protocol,
    fen: Option<&str>,
    link: Option<PathBuf>,
    hands: Option<u64>,
) -> anyhow::Result<()> {
    // With hands, the simulator keeps the game to know what a move does.
    let mut game = match hands {
        None => None,
        Some(seed) => Some((parse_position(fen)?, Hands::new(seed, Timing::human()))),
    };
    // The simulator is a board: any placement will do, legal or not.
    let board = match fen {
        None => shakmaty::Board::default(),
        Some(f) => match f.parse::<Fen>() {
            Ok(parsed) => parsed.into_setup().board,
            Err(_) => match shakmaty::Board::from_ascii_board_fen(f.as_bytes()) {
                Ok(b) => b,
                Err(e) => return bad(format_args!("--fen {f:?}: {e}")),
            },
        },
    };
    let mut sim = match Simulator::new(protocol, board, link) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    println!("{}", sim.path().display());
    let _ = std::io::stdout().flush();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some((pos, hands)) = game.as_mut()
            && let ["move", uci] = line.split_whitespace().collect::<Vec<_>>().as_slice()
        {
            let m = match uci.parse::<UciMove>().map(|u| u.to_move(pos)) {
                Ok(Ok(m)) => m,
                _ => {
                    eprintln!("tactus board sim: {uci} is not a legal move here");
                    continue;
                }
            };
            let plan = hands.plan(pos, m, protocol, true);
            if let Err(e) = sim.perform(&plan) {
                eprintln!("tactus board sim: {e}");
            }
            pos.play_unchecked(m);
            continue;
        }
        match sim.command(&line) {
            Ok(Some(answer)) => println!("{answer}"),
            Ok(None) => {}
            Err(e) => eprintln!("tactus board sim: {e}"),
        }
    }
    Ok(())
}

fn watch(
    protocol: Protocol,
    port: Port,
    baud: Option<u32>,
    fen: Option<&str>,
    json: bool,
    settle_ms: u64,
) -> anyhow::Result<()> {
    let pos = parse_position(fen)?;
    if baud == Some(0) {
        return bad("--baud must be positive");
    }
    if baud.is_some() && matches!(port, Port::Tcp { .. }) {
        return bad(
            "--baud with a tcp:// port: the far end sets the speed (in ser2net's configuration); use rfc2217:// to set it from here",
        );
    }
    if settle_ms > 5_000 {
        return bad(format_args!("--settle-ms {settle_ms}: at most 5000"));
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return bad(format_args!("cannot start the runtime: {e}")),
    };
    let mut config = DriverConfig::new(port, protocol);
    config.baud = baud.unwrap_or(protocol.default_baud());
    let settings = Settings {
        settle: Duration::from_millis(settle_ms),
        auto_correct: false,
    };
    runtime.block_on(async move {
        let epoch = Instant::now();
        let mut driver = match Driver::spawn(config) {
            Ok(d) => d,
            Err(e) => return bad(format_args!("cannot start the driver: {e}")),
        };
        let mut inf = Inference::new(pos, protocol, settings);
        loop {
            // The board is read once the driver has passed on everything it
            // sent until the settling time ran out (not by a timer here,
            // which may run late on a busy machine).
            driver.read_until(inf.deadline().map(|d| epoch + d));
            let stamped = tokio::select! {
                s = driver.next() => s,
                _ = tokio::signal::ctrl_c() => return Ok(()),
            };
            let Some(stamped) = stamped else {
                return Ok(());
            };
            match stamped.event {
                DriverEvent::Board(e) => {
                    print_event(&e, json);
                    for i in inf.event_unsure(&e, stamped.at - epoch, stamped.unsure) {
                        print_inferred(&i, json);
                    }
                }
                DriverEvent::ReadUpTo => {
                    for i in inf.tick(stamped.at - epoch) {
                        print_inferred(&i, json);
                    }
                }
                DriverEvent::Unreadable(u) => {
                    let hex: String = u.bytes.iter().map(|b| format!("{b:02x}")).collect();
                    if json {
                        println!(
                            "{}",
                            json!({"event": "unreadable", "what": u.what, "bytes": hex})
                        );
                    } else {
                        println!("unreadable {} ({hex})", u.what);
                    }
                }
            }
        }
    })
}

fn print_event(e: &BoardEvent, json: bool) {
    let (value, text) = match e {
        BoardEvent::Lifted(sq) => (
            json!({"event": "lift", "square": sq.to_string()}),
            format!("lift {sq}"),
        ),
        BoardEvent::Put(sq) => (
            json!({"event": "put", "square": sq.to_string()}),
            format!("put {sq}"),
        ),
        BoardEvent::Scan(bb) => (
            json!({"event": "scan", "occupied": format!("{:016x}", bb.0)}),
            format!("scan {:016x}", bb.0),
        ),
        BoardEvent::Button(n) => (
            json!({"event": "button", "button": n}),
            format!("button {n}"),
        ),
        BoardEvent::Hello(t) => (json!({"event": "hello", "text": t}), format!("hello {t}")),
        BoardEvent::Dump(b) => (
            json!({"event": "dump", "board": b.to_string()}),
            format!("dump {b}"),
        ),
        BoardEvent::Field { square, piece } => {
            let p = piece.map(|p| p.char().to_string());
            (
                json!({"event": "field", "square": square.to_string(), "piece": p}),
                format!("field {square} {}", p.as_deref().unwrap_or("-")),
            )
        }
        BoardEvent::Version { major, minor } => (
            json!({"event": "version", "major": major, "minor": minor}),
            format!("version {major}.{minor}"),
        ),
        BoardEvent::SerialNumber(s) => (
            json!({"event": "serial", "serial": s}),
            format!("serial {s}"),
        ),
        BoardEvent::Clock(c) => (
            json!({"event": "clock", "clock": c}),
            match c {
                ClockMessage::Ack { .. } => "clock ack".to_string(),
                ClockMessage::Time(t) => format!(
                    "clock right {}:{:02}:{:02} left {}:{:02}:{:02}",
                    t.right.hours,
                    t.right.minutes,
                    t.right.seconds,
                    t.left.hours,
                    t.left.minutes,
                    t.left.seconds
                ),
            },
        ),
        BoardEvent::Connected => (json!({"event": "connected"}), "connected".into()),
        BoardEvent::Disconnected(r) => (
            json!({"event": "disconnected", "reason": r}),
            format!("disconnected ({r})"),
        ),
    };
    if json {
        println!("{value}");
    } else {
        println!("{text}");
    }
}

fn fixes_text(f: &Fixes) -> String {
    let shown: Vec<String> = match f {
        Fixes::Holes(h) => h
            .iter()
            .map(|h| format!("{}:{}", h.square, h.expected.map_or('-', |p| p.char())))
            .collect(),
        Fixes::Squares(s) => s
            .iter()
            .map(|s| format!("{}:{}", s.square, s.expected.map_or('-', |p| p.char())))
            .collect(),
    };
    shown.join(" ")
}

fn print_inferred(i: &Inferred, json: bool) {
    let name = i.name();
    let (value, text) = match i {
        Inferred::Moved { mv, san } | Inferred::Confirmed { mv, san } => {
            let r = MoveRecord::new(*mv, san);
            let text = format!("{name} {} {}", r.san, r.uci);
            (json!({"event": name, "san": r.san, "uci": r.uci}), text)
        }
        Inferred::Touched { square, piece } => {
            let p = piece.map(|p| p.char().to_string());
            (
                json!({"event": name, "square": square.to_string(), "piece": p}),
                format!("{name} {square} {}", p.as_deref().unwrap_or("-")),
            )
        }
        Inferred::PromotionPending { from, to } => {
            let buttons: Vec<String> = (1..=4)
                .filter_map(|n| {
                    promotion_button(n).map(|r| format!("{n} {}", format!("{r:?}").to_lowercase()))
                })
                .collect();
            (
                json!({"event": name, "from": from.to_string(), "to": to.to_string(), "buttons": buttons}),
                format!("{name} {from}{to}: press {}", buttons.join(", ")),
            )
        }
        Inferred::Differs(f) => (
            json!({"event": name, "fixes": f}),
            format!("{name} {}", fixes_text(f)),
        ),
        Inferred::Correction(tokens) => {
            let keys: Vec<String> = tokens.iter().map(|t| t.key()).collect();
            (
                json!({"event": name, "tokens": keys}),
                format!("{name} {}", keys.join(" ")),
            )
        }
        Inferred::Corrected { retracted, mv, san } => {
            let r = MoveRecord::new(*mv, san);
            let was =
                shakmaty::uci::UciMove::from_move(*retracted, shakmaty::CastlingMode::Standard)
                    .to_string();
            (
                json!({"event": name, "san": r.san, "uci": r.uci, "retracted": was}),
                format!("{name} {} {} (not {was}: the piece slid on)", r.san, r.uci),
            )
        }
        Inferred::Agrees => (json!({"event": name}), name.to_string()),
    };
    if json {
        println!("{value}");
    } else {
        println!("{text}");
    }
}
