//! `tactus bench sound`: a move to the first sample of its announcement at
//! the table's sound device. A private PulseAudio (`tactus_testkit::pulse`:
//! Debian's pulseaudio, one null sink at 48 kHz, the ALSA pulse plugin), a
//! real `tactus serve` whose table plays on that sink through ALSA
//! (`audio = "device:t1"`), and `parec` recording the sink's monitor (its
//! 5 ms latency included in the figure). The blind player's move is posted
//! over HTTP; the time is from the request being sent to the announcement's
//! first sound (its first sample that is not silence) reaching the
//! recorder. That sample is found where the announcement, rendered here
//! from the words on the live stream as the server renders them, is
//! recorded sample for sample up to its first loud one: a word that opens
//! quietly (the German voice's "Felix": 37 ms of its /f/ below -40 dBFS)
//! is heard from its first sample, not from the first that passes a
//! loudness threshold. The first loud sample's time is reported beside it
//! (`move_to_first_loud`, the figure this benchmark gave before issue 45
//! found the difference). The assistant's reply follows, and the
//! next move waits until it has been said, so every move starts from an
//! idle, running stream (as at a table, where a move comes after the
//! opponent's announcement has ended). A game that ends starts again at a
//! fresh server.
//!
//! What the server adds on the way is all in it: the journal's commit
//! (`synchronous=FULL`), the rendering of the words, and what the stream
//! holds queued ahead of the announcement (`IDLE_FILL_US` of silence and a
//! period, `crates/speech/src/sink_alsa.rs`). The stream's recoveries
//! (`audio.retried`: an underrun or a transient error) are reported, since
//! a stream that queues less can underrun more.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use tactus_speech::render::RatePack;
use tactus_speech::sink::to_i16;
use tactus_speech::voice_pack::{LoadOptions, VoicePack, find_pack};
use tactus_testkit::pulse::{Pulse, RATE, Recording, spans};

use super::e2e::long_algebraic;
use super::error::BenchError;
use super::serve::{
    Server, Spread, Sse, announcement, post_move, random_move, scratch, subscribe, tokens_of, wait,
    wait_for,
};

/// How the sound benchmark runs.
#[derive(Debug, Clone)]
pub struct SoundOptions {
    pub exe: PathBuf,
    /// Moves measured (the blind player's, each answered by the assistant).
    pub moves: usize,
    pub seed: u64,
    pub voice: String,
}

/// What the sound benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct SoundReport {
    /// A move posted to its announcement's first sound (first sample that
    /// is not silence) at the sink's monitor.
    pub move_to_first_sample: Spread,
    /// 90th percentile of that, ms.
    pub p90_ms: f64,
    /// Moves whose announcement was found sample for sample in the
    /// recording, so timed from its first sound; any other (nothing of it
    /// recorded as rendered) is timed from its first loud sample, later
    /// than its first sound by the word's quiet onset, never earlier.
    pub matched: usize,
    /// Of those, moves whose announcement lost its first samples: the
    /// stream ran dry just before it, and PulseAudio skipped what came
    /// late; timed from the first sample heard.
    pub onset_skipped: usize,
    /// A move posted to the first loud sample (above -40 dBFS) of its
    /// announcement: what this benchmark measured before issue 45, later
    /// than the first sound by a word's quiet onset.
    pub move_to_first_loud: Spread,
    /// 90th percentile of that, ms.
    pub first_loud_p90_ms: f64,
    /// Its two parts: the move posted to its announcement on the table's
    /// live stream (the request, the journal's commit to disk, the words
    /// chosen)...
    pub move_to_event: Spread,
    /// ...and the announcement on the live stream to its first sample at
    /// the sink (rendering, the stream's queue, PulseAudio, parec). Both
    /// start from the same clock here, so the two may overlap by the
    /// stream reader's own lateness.
    pub event_to_first_sample: Spread,
    /// The stream's recoveries (underruns, transient errors) over the run.
    pub retried: u64,
    /// Servers started (a game that ended started another).
    pub servers: usize,
}

const WAIT: Duration = Duration::from_secs(20);

/// Plays `moves` moves into a private sound server and times each.
pub fn run_sound(options: &SoundOptions) -> Result<SoundReport, BenchError> {
    if options.moves == 0 {
        return Err(BenchError::Option("--moves must be at least 1"));
    }
    // The announcements as the server renders them for the sink (the same
    // pack, at the sink's rate), to find each one's first sound.
    let dir = find_pack(&options.voice).map_err(|e| BenchError::Missing(e.to_string()))?;
    let pack = VoicePack::load(&dir, &LoadOptions::default())
        .map_err(|e| BenchError::Missing(e.to_string()))?
        .at_rate(RATE)
        .map_err(|e| BenchError::Missing(e.to_string()))?;
    let pulse = Pulse::start(&["t1"]);
    let mut latencies = Parts::default();
    let mut retried = 0;
    let mut servers = 0;
    let mut rng = options.seed | 1;
    while latencies.total.len() < options.moves {
        servers += 1;
        let data = scratch(1000 + servers)?;
        let result = one_server(options, &pulse, &pack, &data, &mut rng, &mut latencies);
        let _ = std::fs::remove_dir_all(&data);
        retried += result?;
    }
    Ok(SoundReport {
        p90_ms: p90(&latencies.total),
        move_to_first_sample: Spread::of(latencies.total),
        matched: latencies.matched,
        onset_skipped: latencies.skipped,
        first_loud_p90_ms: p90(&latencies.to_loud),
        move_to_first_loud: Spread::of(latencies.to_loud),
        move_to_event: Spread::of(latencies.to_event),
        event_to_first_sample: Spread::of(latencies.to_sample),
        retried,
        servers,
    })
}

/// The 90th percentile of `times`, ms.
fn p90(times: &[Duration]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted
        .get((sorted.len() * 90).div_ceil(100).saturating_sub(1))
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Each move's times.
#[derive(Default)]
struct Parts {
    total: Vec<Duration>,
    to_loud: Vec<Duration>,
    matched: usize,
    skipped: usize,
    to_event: Vec<Duration>,
    to_sample: Vec<Duration>,
}

/// One server's game, until it ends or enough moves were measured;
/// returns the stream's recoveries.
fn one_server(
    options: &SoundOptions,
    pulse: &Pulse,
    pack: &RatePack,
    data: &Path,
    rng: &mut u64,
    latencies: &mut Parts,
) -> Result<u64, BenchError> {
    let table = Heard::start(options, pulse, pack, data)?;
    let mut pos = Chess::default();
    while latencies.total.len() < options.moves {
        let Some(m) = random_move(rng, &pos) else {
            break;
        };
        let from = table.rec.len();
        table.time_move(m, from, latencies)?;
        pos.play_unchecked(m);
        let Some(reply) = random_move(rng, &pos) else {
            break;
        };
        let server = &table.server;
        post_move(
            &server.addr,
            &server.id,
            &server.assistant,
            &long_algebraic(reply),
        )?;
        pos.play_unchecked(reply);
        // The reply is said too: the next move starts from silence.
        if !said_out(&table.rec, from) {
            return Err(BenchError::Missing(
                "the announcements did not end within 20 s".into(),
            ));
        }
    }
    table.retried()
}

/// `tactus serve` on a venue of one table (the blind player White, no
/// board) that plays on the private sound server's sink `t1`; returns once
/// the table's sound plays.
fn start_server(options: &SoundOptions, pulse: &Pulse, data: &Path) -> Result<Server, BenchError> {
    let config = data.join("venue.toml");
    std::fs::write(
        &config,
        format!(
            "[speech]\nvoice = \"{}\"\n\n[[table]]\nid = \"1\"\nboard = \"none\"\nblind = \"white\"\naudio = \"device:t1\"\n",
            options.voice
        ),
    )
    .map_err(BenchError::io(format!("cannot write {}", config.display())))?;
    let server = Server::start_venue(&options.exe, &config, data, &pulse.env())?;
    let deadline = Instant::now() + WAIT;
    while audio(&server)?["state"] != "playing" {
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!(
                "table 1's sound did not play within {WAIT:?}"
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(server)
}

/// A server's table as it is heard: its sink recorded, its live stream
/// read, its announcements rendered here to find them in the recording.
struct Heard<'a> {
    // Dropped in this order: the live stream, the recorder, the server.
    live: mpsc::Receiver<Sse>,
    rec: Recording,
    server: Server,
    pack: &'a RatePack,
    /// The stream's recoveries before the first move.
    retried_before: u64,
}

impl<'a> Heard<'a> {
    /// Starts the server, the recorder and the live stream, in that order.
    fn start(
        options: &SoundOptions,
        pulse: &Pulse,
        pack: &'a RatePack,
        data: &Path,
    ) -> Result<Heard<'a>, BenchError> {
        let server = start_server(options, pulse, data)?;
        let rec = pulse.record("t1");
        // The recorder streaming: a move heard before it was there would be
        // timed from its connection.
        if !wait_until(WAIT, || rec.len() > (RATE / 5) as usize) {
            return Err(BenchError::Missing("parec recorded nothing".into()));
        }
        let retried_before = audio(&server)?["retried"].as_u64().unwrap_or(0);
        let live = subscribe(&server.addr, &server.id)?;
        // The stream begins with the table's state: from then on the server
        // sends this subscriber every announcement.
        wait(&live, "the table's state", |name, _| name == "state")?;
        Ok(Heard {
            live,
            rec,
            server,
            pack,
            retried_before,
        })
    }

    /// Posts the blind player's move `m` and times it to its
    /// announcement's first sound, recorded from sample `from` on.
    fn time_move(
        &self,
        m: shakmaty::Move,
        from: usize,
        latencies: &mut Parts,
    ) -> Result<(), BenchError> {
        let (server, rec) = (&self.server, &self.rec);
        let uci = UciMove::from_standard(m).to_string();
        while self.live.try_recv().is_ok() {}
        let submitted = Instant::now();
        post_move(&server.addr, &server.id, &server.player, &long_algebraic(m))?;
        let (event, words) = wait_for(&self.live, "move announcement", announcement("move"))?;
        let given: Vec<i16> = self
            .pack
            .render(&tokens_of(&words))
            .into_iter()
            .map(to_i16)
            .collect();
        let not_heard = || BenchError::Missing(format!("{uci} was not heard within {WAIT:?}"));
        let loud = wait_some(WAIT, || rec.first_loud(from)).ok_or_else(not_heard)?;
        // The 20 ms behind the first loud sample recorded: the match
        // looks at them.
        wait_until(WAIT, || rec.len() > loud + (RATE / 50) as usize);
        let start = rec.heard_start(from, &given);
        latencies.matched += usize::from(start.is_some());
        latencies.skipped += usize::from(start.is_some_and(|s| s.skipped > 0));
        let heard = rec
            .time_of(start.map_or(loud, |s| s.at))
            .ok_or_else(not_heard)?;
        let heard_loud = rec.time_of(loud).ok_or_else(not_heard)?;
        latencies
            .total
            .push(heard.saturating_duration_since(submitted));
        latencies
            .to_loud
            .push(heard_loud.saturating_duration_since(submitted));
        latencies
            .to_event
            .push(event.saturating_duration_since(submitted));
        latencies
            .to_sample
            .push(heard.saturating_duration_since(event));
        Ok(())
    }

    /// The stream's recoveries since the first move.
    fn retried(&self) -> Result<u64, BenchError> {
        let retried_after = audio(&self.server)?["retried"].as_u64().unwrap_or(0);
        Ok(retried_after.saturating_sub(self.retried_before))
    }
}

/// Table 1's sound output as its state says it.
fn audio(server: &Server) -> Result<serde_json::Value, BenchError> {
    let r = tactus_testkit::http::request(
        &server.addr,
        "GET",
        &format!("/api/tables/{}", server.id),
        None,
        None,
        WAIT,
    )
    .map_err(BenchError::io("cannot read the table's state".to_owned()))?;
    let v: serde_json::Value = serde_json::from_str(&r.body)?;
    Ok(v["audio"].clone())
}

/// Whether everything heard since sample `from` has ended, half a second
/// of silence behind its last sound (within [`WAIT`]).
fn said_out(rec: &Recording, from: usize) -> bool {
    // Looked at every 20 ms, each look copying only what this move's
    // announcements were recorded in. Copying the whole recording (96 kB
    // more each second) kept the bench's own process at 38% of a core over
    // a 100-move run, on the two cores whose scheduling it measures; 3%
    // this way.
    wait_until(WAIT, || {
        std::thread::sleep(Duration::from_millis(20));
        let samples = rec.samples_from(from);
        let quiet = (RATE / 2) as usize;
        match spans(&samples, 400).last() {
            Some(&(_, end)) => samples.len() > end + quiet,
            None => false,
        }
    })
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    wait_some(limit, || f().then_some(())).is_some()
}

fn wait_some<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
