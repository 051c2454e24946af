//! `tactus say pgn FILE`, `tactus say move --fen FEN MOVE` and `tactus say
//! clock`: announce a game, one move or the clock as text, JSON lines, a WAV
//! file and/or on the sound card.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use tactus_rules::announce::Style;
use tactus_rules::clock_announce::{ClockReading, Shown, clock_tokens_in};
use tactus_rules::game_announcements::{AnnouncedPly, announce_move, announce_record};
use tactus_rules::pgn::{GameRecord, PgnError, parse_clock, read_games};
use tactus_rules::token::Token;
use tactus_speech::sink::{DEFAULT_PAUSE_MS, Sink, WavSink};
use tactus_speech::sink_alsa::{DeviceError, DeviceSink, Persistence};
use tactus_speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

use super::Outcome;

/// What to announce.
#[derive(Subcommand)]
pub enum SayCommand {
    /// Every move of one game in a PGN file (the first unless --game says
    /// otherwise), or with --list the file's games.
    Pgn {
        /// The PGN file.
        file: PathBuf,
        /// Which game of the file: 1 for the first.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        game: u32,
        /// List the file's games with their tags (and --json: every tag)
        /// instead of announcing one.
        #[arg(long, conflicts_with = "game")]
        list: bool,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// One move in a position.
    Move {
        /// The position, as FEN.
        #[arg(long)]
        fen: String,
        /// The move, in SAN (`Nf3`) or UCI (`g1f3`).
        #[arg(value_name = "MOVE")]
        mv: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The clock announcement on request (D.2.6, D.2.10.4): both times, then
    /// the number of moves.
    Clock {
        /// White's time: seconds (`4325`) or h:mm:ss (`1:12:05`).
        #[arg(long, value_parser = parse_time)]
        white: Duration,
        /// Black's time, as for --white.
        #[arg(long, value_parser = parse_time)]
        black: Duration,
        /// Moves White has completed.
        #[arg(long)]
        moves: u32,
        /// The times given are time used, and are said as such (without
        /// seconds: the time left is not known).
        #[arg(long)]
        used: bool,
        #[command(flatten)]
        speak: SpeakArgs,
    },
}

/// Why a `--time` is not a time; clap shows its text after the flag.
#[derive(Debug, thiserror::Error)]
enum BadTime {
    #[error(transparent)]
    Clock(#[from] PgnError),
    #[error("`{0}` is not a time: give seconds or h:mm:ss")]
    NotATime(String),
    #[error("`{0}`: a time from 0 to 100 hours")]
    OutOfRange(String),
}

/// A time as seconds or h:mm:ss.
fn parse_time(s: &str) -> Result<Duration, BadTime> {
    if s.contains(':') {
        return Ok(parse_clock(s)?);
    }
    let secs: f64 = s.parse().map_err(|_| BadTime::NotATime(s.to_owned()))?;
    if !secs.is_finite() || !(0.0..=360_000.0).contains(&secs) {
        return Err(BadTime::OutOfRange(s.to_owned()));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// How moves are said, and where.
#[derive(Args)]
pub struct OutputArgs {
    /// `standard` (as SAN is written) or `long` (piece and origin always).
    #[arg(long, default_value = "standard")]
    style: Style,
    #[command(flatten)]
    speak: SpeakArgs,
}

/// The voice and where it speaks.
#[derive(Args)]
pub struct SpeakArgs {
    /// Voice pack: a name under voices/ or a directory.
    #[arg(long, default_value = DEFAULT_PACK)]
    voice: String,
    /// Speech speed, 0.5 to 2.0; the pitch is kept.
    #[arg(long, default_value_t = 1.0)]
    speed: f32,
    /// JSON: one object per ply, {"ply": 1, "san": "e4", "text": "Eva vier"},
    /// or {"text": "..."} for the clock.
    #[arg(long)]
    json: bool,
    /// Write the announcements, one after another, to this WAV file.
    #[arg(long, value_name = "OUT")]
    wav: Option<PathBuf>,
    /// Play on the sound card (text only, with a warning, if there is none);
    /// returns once the device has played the last sample.
    #[arg(long)]
    play: bool,
    /// The ALSA PCM to play on with --play (`tactus audio devices` lists
    /// them): `default` unless given.
    #[arg(long, value_name = "NAME", default_value = "default")]
    device: String,
}

/// How long opening a device for `--play` may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(3);

/// Opens the device for `--play`: no device is one warning, then text.
fn open_device(pack: &Arc<VoicePack>, speak: &SpeakArgs) -> Result<DeviceSink, DeviceError> {
    DeviceSink::open(
        Arc::clone(pack),
        &speak.device,
        &speak.device,
        Persistence::GiveUp,
        OPEN_TIMEOUT,
    )
}

/// Runs `say`. Bad input: a message on stderr and exit status 2, before
/// any output.
pub fn run(command: SayCommand) -> Outcome {
    say(command)?;
    Ok(())
}

fn say(command: SayCommand) -> anyhow::Result<()> {
    let (plies, output) = match command {
        SayCommand::Clock {
            white,
            black,
            moves,
            used,
            speak,
        } => {
            let (reading, shown) = if used {
                let mut r = ClockReading::default();
                r.white.used = white;
                r.black.used = black;
                // Time left is not known here: seconds (said below ten
                // minutes left) are left out.
                r.white.remaining = Duration::MAX;
                r.black.remaining = Duration::MAX;
                r.moves = moves;
                (r, Shown::Used)
            } else {
                (
                    ClockReading::remaining(white, black, moves),
                    Shown::Remaining,
                )
            };
            return say_clock(&reading, shown, &speak);
        }
        SayCommand::Pgn {
            file,
            list: true,
            output,
            ..
        } => return list_games(&file, output.speak.json),
        SayCommand::Pgn {
            file, game, output, ..
        } => {
            let (plies, stop) = read_game(&file, game, output.style)?;
            speak(&plies, &output)?;
            if let Some(note) = stop {
                eprintln!("note: {note}");
            }
            return Ok(());
        }
        SayCommand::Move { fen, mv, output } => {
            (vec![announce_move(&fen, &mv, output.style)?], output)
        }
    };
    speak(&plies, &output)
}

/// Every game of a PGN file, or why the file cannot be read.
fn read_file(file: &Path) -> anyhow::Result<Vec<Result<GameRecord, PgnError>>> {
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let games = read_games(&bytes);
    if games.is_empty() {
        anyhow::bail!("{}: {}", file.display(), PgnError::Empty);
    }
    Ok(games)
}

/// Game `number`'s announcements and, if it stops at a null move, what to
/// say about that; or what is wrong, naming the file, the game and the ply.
fn read_game(
    file: &Path,
    number: u32,
    style: Style,
) -> anyhow::Result<(Vec<AnnouncedPly>, Option<String>)> {
    let mut games = read_file(file)?;
    let count = games.len();
    let Some(game) = games.get_mut(number as usize - 1) else {
        anyhow::bail!(
            "{}: --game {number}: the file has {count} game{}",
            file.display(),
            if count == 1 { "" } else { "s" }
        );
    };
    let at = |e: &dyn std::fmt::Display| format!("{}: game {number}: {e}", file.display());
    let record =
        std::mem::replace(game, Err(PgnError::Empty)).map_err(|e| anyhow::anyhow!(at(&e)))?;
    let plies = announce_record(&record, style).map_err(|e| anyhow::anyhow!(at(&e)))?;
    let stop = record.null_move.map(|ply| {
        at(&format_args!(
            "ply {ply} is a null move (a pass, which no game under the Laws has): the \
             announcements stop there, after the {} before it",
            plural(ply - 1, "ply", "plies")
        ))
    });
    Ok((plies, stop))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `say pgn FILE --list`: one line per game (or with `json`, an object with
/// every tag); a game that cannot be read is listed with the reason, said
/// on stderr too, and makes the exit status 2.
fn list_games(file: &Path, json: bool) -> anyhow::Result<()> {
    let games = read_file(file)?;
    let mut bad = 0;
    let mut stdout = std::io::stdout().lock();
    for (i, game) in games.iter().enumerate() {
        let number = i + 1;
        let line = match (game, json) {
            (Ok(r), false) => format!("game {number}: {}", summary(r)),
            (Ok(r), true) => {
                let tags: serde_json::Map<String, serde_json::Value> = r
                    .all_tags()
                    .into_iter()
                    .map(|(k, v)| (k, serde_json::Value::String(v)))
                    .collect();
                serde_json::json!({
                    "game": number,
                    "tags": tags,
                    "plies": r.moves.len(),
                    "null_move": r.null_move,
                })
                .to_string()
            }
            (Err(e), false) => format!("game {number}: cannot be read: {e}"),
            (Err(e), true) => {
                serde_json::json!({"game": number, "error": e.to_string()}).to_string()
            }
        };
        if let Err(e) = game {
            bad += 1;
            eprintln!("tactus say: {}: game {number}: {e}", file.display());
        }
        match writeln!(stdout, "{line}") {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(anyhow::Error::new(e).context("cannot write to stdout")),
        }
    }
    if bad > 0 {
        anyhow::bail!(
            "{}: {} of {} games cannot be read",
            file.display(),
            bad,
            games.len()
        );
    }
    Ok(())
}

/// A game in one line: the players, where and when, the result, the
/// variant and start, and how many plies can be announced.
fn summary(r: &GameRecord) -> String {
    let known = |name: &str| {
        r.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.chars().all(|c| matches!(c, '?' | '.' | '-')))
    };
    let mut out = format!(
        "{} - {}",
        known("White").unwrap_or("?"),
        known("Black").unwrap_or("?")
    );
    let mut place: Vec<String> = ["Event", "Site", "Date"]
        .iter()
        .filter_map(|t| known(t).map(str::to_owned))
        .collect();
    if let Some(round) = known("Round") {
        place.push(format!("round {round}"));
    }
    if !place.is_empty() {
        out.push_str(&format!(" ({})", place.join(", ")));
    }
    let all = r.all_tags();
    let result = all
        .iter()
        .find(|(k, _)| k == "Result")
        .map_or("*", |(_, v)| v.as_str());
    out.push_str(&format!(", {result}"));
    if let Some(v) = r.variant.tag() {
        out.push_str(&format!(", {v}"));
    }
    if r.start.is_some() {
        out.push_str(", from a set-up position");
    }
    out.push_str(&format!(", {}", plural(r.moves.len(), "ply", "plies")));
    if let Some(ply) = r.null_move {
        out.push_str(&format!(", then a null move at ply {ply}"));
    }
    out
}

/// Loads a pack by name or path, strictly: a broken pack is an error.
fn load_pack(voice: &str, speed: f32) -> anyhow::Result<Arc<VoicePack>> {
    let dir = find_pack(voice)?;
    let pack = VoicePack::load(
        &dir,
        &LoadOptions {
            speed,
            lenient: false,
        },
    )?;
    Ok(Arc::new(pack))
}

/// Says the clock: text or JSON, and the WAV file and card if asked.
fn say_clock(reading: &ClockReading, shown: Shown, speak: &SpeakArgs) -> anyhow::Result<()> {
    let pack = load_pack(&speak.voice, speak.speed)?;
    let tokens = &clock_tokens_in(reading, shown, pack.grammar());
    let text = pack.text(tokens);
    if let Some(path) = &speak.wav {
        let mut sink = WavSink::create(path, &pack, None, DEFAULT_PAUSE_MS)?;
        let written = sink.say(tokens, &text).and_then(|()| sink.finish());
        if let Err(e) = written {
            let _ = std::fs::remove_file(path);
            return Err(e.into());
        }
    }
    if speak.json {
        println!("{{\"text\": {}}}", json_string(&text));
    } else {
        println!("{text}");
    }
    if speak.play {
        match open_device(&pack, speak) {
            Ok(mut card) => {
                if let Err(e) = card.say(tokens, &text).and_then(|()| card.finish()) {
                    eprintln!("warning: no sound ({e:#}); text only");
                }
            }
            Err(e) => eprintln!("warning: no sound ({e}); text only"),
        }
    }
    Ok(())
}

/// Loads the pack, then prints (and writes, and plays) every ply.
fn speak(plies: &[AnnouncedPly], output: &OutputArgs) -> anyhow::Result<()> {
    let speak = &output.speak;
    let pack = load_pack(&speak.voice, speak.speed)?;
    let mut wav = match &speak.wav {
        Some(path) => Some(WavSink::create(path, &pack, None, DEFAULT_PAUSE_MS)?),
        None => None,
    };
    let card = if speak.play {
        match open_device(&pack, speak) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("warning: no sound ({e}); text only from here on");
                None
            }
        }
    } else {
        None
    };
    let result = say_all(plies, &pack, wav.as_mut(), card, speak.json);
    if result.is_err()
        && let Some(path) = &speak.wav
    {
        // A half-written WAV file must not look like a result.
        let _ = std::fs::remove_file(path);
    }
    result
}

/// Prints every ply (text or JSON), writes it to the WAV file and plays it.
fn say_all(
    plies: &[AnnouncedPly],
    pack: &VoicePack,
    mut wav: Option<&mut WavSink>,
    mut card: Option<DeviceSink>,
    json: bool,
) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    for ply in plies {
        let text = pack.text(&ply.tokens);
        let line = if json {
            format!(
                "{{\"ply\": {}, \"san\": {}, \"text\": {}}}",
                ply.ply,
                json_string(&ply.san),
                json_string(&text)
            )
        } else {
            format!("{}: {text}", ply.label())
        };
        match writeln!(stdout, "{line}").and_then(|()| stdout.flush()) {
            Ok(()) => {}
            // The reader went away (`| head`): nothing more to say.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(anyhow::Error::new(e).context("cannot write to stdout")),
        }
        if let Some(w) = wav.as_mut() {
            w.say(&ply.tokens, &text)?;
        }
        if let Some(c) = card.as_mut()
            && let Err(e) = pause_then_say(c, ply.ply > 1, &ply.tokens, &text)
        {
            eprintln!("warning: no sound ({e}); text only from here on");
            card = None;
        }
    }
    if let Some(w) = wav.as_mut() {
        w.finish()?;
    }
    Ok(())
}

/// Plays a pause between moves (as the WAV file has), then the move.
fn pause_then_say(
    card: &mut DeviceSink,
    pause: bool,
    tokens: &[Token],
    text: &str,
) -> anyhow::Result<()> {
    if pause {
        let silence = vec![0.0; tactus_speech::dsp::ms_to_samples(DEFAULT_PAUSE_MS, card.rate())];
        card.play(silence).map_err(anyhow::Error::msg)?;
    }
    Ok(card.say(tokens, text)?)
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}
