//! `tactus say pgn FILE`, `tactus say move --fen FEN MOVE` and `tactus say
//! clock`: announce a game, one move or the clock as text, JSON lines, a WAV
//! file and/or on the sound card.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use tactus::rules::announce::Style;
use tactus::rules::clock_announce::{ClockReading, Shown, clock_tokens};
use tactus::rules::game_announcements::{AnnouncedPly, announce_move, announce_pgn};
use tactus::rules::pgn::parse_clock;
use tactus::rules::token::Token;
use tactus::speech::sink::{DEFAULT_PAUSE_MS, Sink, WavSink};
use tactus::speech::sink_card::{CardSink, OPEN_TIMEOUT};
use tactus::speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

/// What to announce.
#[derive(Subcommand)]
pub enum SayCommand {
    /// Every move of the first game in a PGN file.
    Pgn {
        /// The PGN file.
        file: PathBuf,
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

/// A time as seconds or h:mm:ss.
fn parse_time(s: &str) -> Result<Duration, String> {
    if s.contains(':') {
        return parse_clock(s).map_err(|e| e.to_string());
    }
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a time: give seconds or h:mm:ss"))?;
    if !secs.is_finite() || !(0.0..=360_000.0).contains(&secs) {
        return Err(format!("`{s}`: a time from 0 to 100 hours"));
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
    /// Play on the sound card (text only, with a warning, if there is none).
    #[arg(long)]
    play: bool,
}

/// Runs `say`. Bad input: a message on stderr and exit status 2, before
/// any output.
pub fn run(command: SayCommand) -> ExitCode {
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
            let tokens = clock_tokens(&reading, shown);
            return match say_clock(&tokens, &speak) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => bad_input(&e),
            };
        }
        SayCommand::Pgn { file, output } => (read_game(&file, output.style), output),
        SayCommand::Move { fen, mv, output } => (
            announce_move(&fen, &mv, output.style)
                .map(|p| vec![p])
                .map_err(|e| e.to_string()),
            output,
        ),
    };
    let plies = match plies {
        Ok(p) => p,
        Err(e) => return bad_input(&e),
    };
    match speak(&plies, &output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => bad_input(&e),
    }
}

fn bad_input(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// The whole game's announcements, or what is wrong with it, naming the file.
fn read_game(file: &Path, style: Style) -> Result<Vec<AnnouncedPly>, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    announce_pgn(&bytes, style).map_err(|e| format!("{}: {e}", file.display()))
}

/// Loads a pack by name or path, strictly: a broken pack is an error.
fn load_pack(voice: &str, speed: f32) -> Result<Arc<VoicePack>, String> {
    let dir = find_pack(voice)?;
    let pack = VoicePack::load(
        &dir,
        &LoadOptions {
            speed,
            lenient: false,
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(Arc::new(pack))
}

/// Says the clock: text or JSON, and the WAV file and card if asked.
fn say_clock(tokens: &[Token], speak: &SpeakArgs) -> Result<(), String> {
    let pack = load_pack(&speak.voice, speak.speed)?;
    let text = pack.text(tokens);
    if let Some(path) = &speak.wav {
        let mut sink =
            WavSink::create(path, &pack, None, DEFAULT_PAUSE_MS).map_err(|e| format!("{e:#}"))?;
        let written = sink.say(tokens, &text).and_then(|()| sink.finish());
        if let Err(e) = written {
            let _ = std::fs::remove_file(path);
            return Err(format!("{e:#}"));
        }
    }
    if speak.json {
        println!("{{\"text\": {}}}", json_string(&text));
    } else {
        println!("{text}");
    }
    if speak.play {
        match CardSink::open(Arc::clone(&pack), OPEN_TIMEOUT) {
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
fn speak(plies: &[AnnouncedPly], output: &OutputArgs) -> Result<(), String> {
    let speak = &output.speak;
    let pack = load_pack(&speak.voice, speak.speed)?;
    let mut wav = match &speak.wav {
        Some(path) => Some(
            WavSink::create(path, &pack, None, DEFAULT_PAUSE_MS).map_err(|e| format!("{e:#}"))?,
        ),
        None => None,
    };
    let card = if speak.play {
        match CardSink::open(Arc::clone(&pack), OPEN_TIMEOUT) {
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
    mut card: Option<CardSink>,
    json: bool,
) -> Result<(), String> {
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
            Err(e) => return Err(format!("cannot write to stdout: {e}")),
        }
        if let Some(w) = wav.as_mut() {
            w.say(&ply.tokens, &text).map_err(|e| format!("{e:#}"))?;
        }
        if let Some(c) = card.as_mut()
            && let Err(e) = pause_then_say(c, ply.ply > 1, &ply.tokens, &text)
        {
            eprintln!("warning: no sound ({e}); text only from here on");
            card = None;
        }
    }
    if let Some(w) = wav.as_mut() {
        w.finish().map_err(|e| format!("{e:#}"))?;
    }
    Ok(())
}

/// Plays a pause between moves (as the WAV file has), then the move.
fn pause_then_say(
    card: &mut CardSink,
    pause: bool,
    tokens: &[Token],
    text: &str,
) -> anyhow::Result<()> {
    if pause {
        let silence = vec![0.0; tactus::speech::dsp::ms_to_samples(DEFAULT_PAUSE_MS, card.rate())];
        card.play(&silence).map_err(anyhow::Error::msg)?;
    }
    card.say(tokens, text)
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}
