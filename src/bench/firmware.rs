//! `tactus bench firmware`: the peg board's own firmware in the RP2040
//! emulator (`tactus_testkit::peg_firmware`) beside today's simulated peg
//! board (`tactus_board::sim`), each under a real `tactus serve` with the
//! blind player White on it. The same seeded game is carried out on each
//! by the hands model (brisk timing); Black's replies come through the API
//! and are carried out on the board by White's hands.
//!
//! Measured: the firmware's scan rate (scans counted in the emulator), the
//! time from a switch changing to its line on the USB port (in emulated
//! time, what a real board does; and in real time, which adds the
//! emulator's own lateness), and, for both boards, from the step that
//! completes a move on the board (the last peg seated, or the promotion's
//! button) to the move's announcement on the table's live stream. The
//! server reads the firmware's board without settling (its hello says it
//! debounces, 10 ms, which is in the figure) and settles the simulated
//! board's moves for the peg board's default settling time (20 ms, in its
//! figure); the settling time each was read with is reported, as the
//! server's state says it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{Board, Chess, Color, Position};
use tactus_board::event::Protocol;
use tactus_board::hands::{Hands, Plan, Timing};
use tactus_board::sim::Simulator;
use tactus_testkit::peg_firmware::{EmulatedPegBoard, Parts};

use super::e2e::long_algebraic;
use super::error::BenchError;
use super::serve::{
    Server, Spread, announcement, post_move, random_move, scratch, subscribe, wait,
};

/// How the firmware benchmark runs.
#[derive(Debug, Clone)]
pub struct FirmwareOptions {
    pub exe: PathBuf,
    /// The repository (where `target/firmware/peg-board.uf2` and the
    /// emulator are).
    pub root: PathBuf,
    pub voice: String,
    /// White's moves measured on each board.
    pub moves: usize,
    pub seed: u64,
}

/// What the emulator measured of the firmware.
#[derive(Debug, Clone, Serialize)]
pub struct FirmwareFigures {
    pub scans_per_s: f64,
    /// Switch changes matched to their USB line.
    pub changes: u64,
    pub switch_to_usb_emulated_p50_ms: f64,
    pub switch_to_usb_emulated_max_ms: f64,
    pub switch_to_usb_real_p50_ms: f64,
    pub switch_to_usb_real_p99_ms: f64,
    pub switch_to_usb_real_max_ms: f64,
    /// How far the emulation fell behind real time at worst.
    pub worst_lag_ms: f64,
    /// Millions of emulated instructions a second (the firmware mostly
    /// sleeps between scans).
    pub mips: f64,
}

/// The benchmark's report.
#[derive(Debug, Clone, Serialize)]
pub struct FirmwareReport {
    pub seed: u64,
    pub firmware: FirmwareFigures,
    /// The last step of a move on the firmware's board to its announcement.
    pub firmware_move_known: Spread,
    /// The same on the simulated peg board.
    pub sim_move_known: Spread,
    /// The settling time the server read the firmware's board with (its
    /// state's `board.settle_ms`): 0, as its hello says it debounces.
    pub firmware_settle_ms: u64,
    /// The same for the simulated board, which does not debounce: the peg
    /// board's default.
    pub sim_settle_ms: u64,
}

/// Runs the benchmark: the emulated firmware, then the simulator.
pub fn run_firmware(options: &FirmwareOptions) -> Result<FirmwareReport, BenchError> {
    if options.moves == 0 {
        return Err(BenchError::Option("--moves must be at least 1"));
    }
    let parts = Parts::find(&options.root)?;
    let board = EmulatedPegBoard::start(&parts)
        .map_err(BenchError::io("cannot start the emulator".to_owned()))?;
    for sq in Board::default().occupied() {
        board
            .command(&format!("close {sq}"))
            .map_err(BenchError::io("cannot talk to the emulator".to_owned()))?;
    }
    let io = |what: &'static str| {
        move |e: std::io::Error| BenchError::Io {
            what: what.to_owned(),
            error: e,
        }
    };
    let (firmware_moves, firmware_settle_ms) = play(options, &board.path(), 0, &mut |plan| {
        board.perform(plan).map_err(io("the emulated board failed"))
    })?;
    let stats = board.stats().map_err(io("no figures from the emulator"))?;
    drop(board);
    let mut sim =
        Simulator::new(Protocol::Peg, Board::default(), None).map_err(BenchError::Simulator)?;
    let path = sim.path();
    let (sim_moves, sim_settle_ms) = play(options, &path, 1, &mut |plan| {
        sim.perform(plan).map_err(BenchError::Board)
    })?;
    let f = |k: &str| stats[k].as_f64().unwrap_or(f64::NAN);
    Ok(FirmwareReport {
        seed: options.seed,
        firmware: FirmwareFigures {
            scans_per_s: f("scans_per_s"),
            changes: stats["changes"].as_u64().unwrap_or(0),
            switch_to_usb_emulated_p50_ms: f("emulated_p50_ms"),
            switch_to_usb_emulated_max_ms: f("emulated_max_ms"),
            switch_to_usb_real_p50_ms: f("real_p50_ms"),
            switch_to_usb_real_p99_ms: f("real_p99_ms"),
            switch_to_usb_real_max_ms: f("real_max_ms"),
            worst_lag_ms: f("worst_lag_ms"),
            mips: f("mips"),
        },
        firmware_move_known: Spread::of(firmware_moves),
        sim_move_known: Spread::of(sim_moves),
        firmware_settle_ms,
        sim_settle_ms,
    })
}

/// One game on a board at `path` under a fresh `tactus serve`: White's
/// moves carried out by `perform` and measured to their announcement; and
/// the settling time the server read the board with.
fn play(
    options: &FirmwareOptions,
    path: &std::path::Path,
    run: usize,
    perform: &mut dyn FnMut(&Plan) -> Result<Instant, BenchError>,
) -> Result<(Vec<Duration>, u64), BenchError> {
    let data = scratch(run)?;
    let server = Server::start(&options.exe, &options.voice, &data, Some(path))?;
    let rx = subscribe(&server.addr, &server.id)?;
    wait(&rx, "the board in step", |name, data| {
        name == "state" && data["board"]["in_sync"] == true
    })?;
    let mut hands = Hands::new(options.seed, Timing::brisk());
    let mut pos = Chess::default();
    let mut rng = options.seed | 1;
    let mut measured = Vec::new();
    while measured.len() < options.moves {
        let Some(m) = random_move(&mut rng, &pos) else {
            break;
        };
        while rx.try_recv().is_ok() {}
        if pos.turn() == Color::White {
            let plan = hands.plan(&pos, m, Protocol::Peg, true);
            let completed = perform(&plan)?;
            let at = wait(&rx, "move announcement", announcement("move"))?;
            measured.push(at.saturating_duration_since(completed));
        } else {
            post_move(
                &server.addr,
                &server.id,
                &server.assistant,
                &long_algebraic(m),
            )?;
            let plan = hands.plan(&pos, m, Protocol::Peg, false);
            perform(&plan)?;
        }
        pos.play_unchecked(m);
        wait(&rx, "the board in step", |name, data| {
            name == "state" && data["board"]["in_sync"] == true
        })?;
        if pos.is_game_over() {
            break;
        }
    }
    // Read after the game: the board's hello was read long before.
    let state = tactus_testkit::http::request(
        &server.addr,
        "GET",
        &format!("/api/tables/{}", server.id),
        None,
        None,
        Duration::from_secs(10),
    )
    .map_err(BenchError::io("cannot read the table's state".to_owned()))?;
    let settle_ms = serde_json::from_str::<serde_json::Value>(&state.body)?["board"]["settle_ms"]
        .as_u64()
        .ok_or_else(|| BenchError::Missing(format!("no board.settle_ms in {}", state.body)))?;
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
    Ok((measured, settle_ms))
}
