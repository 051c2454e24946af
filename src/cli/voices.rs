//! `tactus voices check [DIR]`, `tactus voices record DIR` and `tactus
//! voices stats PGN...`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tactus_rules::announce::Style;
use tactus_rules::game_announcements::announce_pgn;
use tactus_rules::token::Token;
use tactus_speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

use super::Outcome;

/// Voice pack tools.
#[derive(Subcommand)]
pub enum VoicesCommand {
    /// Check a pack (default: the default pack) and print every problem.
    Check {
        /// A pack directory or a name under voices/.
        dir: Option<String>,
    },
    /// Record a pack with your own voice: serves a page that walks you
    /// through every token from the browser's microphone (docs/recording.md).
    Record {
        /// The pack folder recorded into (made from --from if it has no
        /// voice.toml yet).
        dir: PathBuf,
        /// The pack whose tokens and texts a new pack copies.
        #[arg(long, default_value = DEFAULT_PACK)]
        from: String,
        /// Who records (written in the manifest's [source]).
        #[arg(long, default_value = "")]
        speaker: String,
        /// Where the page is served (loopback: the recording computer).
        #[arg(long, default_value = "127.0.0.1:8090")]
        listen: std::net::SocketAddr,
    },
    /// Spoken length of every announcement of the given games.
    Stats {
        /// PGN files (e.g. tests/fixtures/announcements/*.pgn).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Voice pack: a name under voices/ or a directory.
        #[arg(long, default_value = DEFAULT_PACK)]
        voice: String,
        /// `standard` or `long`.
        #[arg(long, default_value = "standard")]
        style: Style,
        /// Speech speed, 0.5 to 2.0.
        #[arg(long, default_value_t = 1.0)]
        speed: f32,
    },
}

/// Runs `voices`. A broken pack or bad input exits with status 2.
pub fn run(command: VoicesCommand) -> Outcome {
    match command {
        VoicesCommand::Stats {
            files,
            voice,
            style,
            speed,
        } => stats(&files, &voice, style, speed)?,
        VoicesCommand::Check { dir } => check(dir.as_deref().unwrap_or(DEFAULT_PACK))?,
        VoicesCommand::Record {
            dir,
            from,
            speaker,
            listen,
        } => record(&dir, &from, &speaker, listen)?,
    }
    Ok(())
}

fn record(
    dir: &std::path::Path,
    from: &str,
    speaker: &str,
    listen: std::net::SocketAddr,
) -> anyhow::Result<()> {
    use tactus::service::recorder;
    let recording = recorder::prepare(dir, from, speaker)?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    runtime
        .block_on(recorder::serve(recording, listen))
        .with_context(|| format!("cannot serve the recorder on {listen}"))
}

fn check(name: &str) -> anyhow::Result<()> {
    let dir = find_pack(name)?;
    match VoicePack::load(&dir, &LoadOptions::default()) {
        Ok(pack) => {
            let rate = pack.sample_rate();
            let total: usize = Token::all()
                .into_iter()
                .filter_map(|t| pack.clip(t).map(|c| c.len()))
                .sum();
            println!(
                "{}: ok: `{}` ({}), {} tokens, {rate} Hz, gap {} ms, {:.1} s of speech after trimming",
                dir.display(),
                pack.name(),
                pack.tag(),
                Token::all().len(),
                pack.gap_ms(),
                total as f64 / f64::from(rate)
            );
            if let Some(s) = pack.source() {
                println!(
                    "made by {} ({}){}",
                    s.engine,
                    s.voice,
                    s.version
                        .as_deref()
                        .map_or(String::new(), |v| format!(", {v}"))
                );
            }
            loudness_report(&pack);
            Ok(())
        }
        Err(e) => {
            println!("{e}");
            anyhow::bail!(
                "voice pack {} is broken ({} problems)",
                dir.display(),
                e.problems.len()
            )
        }
    }
}

/// Loudness of the clips as recorded and as levelled at load; the clips
/// far off the pack's median (likely a wrong or damaged recording).
fn loudness_report(pack: &VoicePack) {
    use tactus_speech::loudness::{FAR_OFF_DB, TARGET_DB, loudness_db};
    let rate = pack.sample_rate();
    let mut rows: Vec<(Token, f32, f32)> = Token::all()
        .into_iter()
        .filter_map(|t| {
            let before = pack.recorded_loudness(t)?;
            let after = loudness_db(pack.clip(t)?, rate)?;
            Some((t, before, after))
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let spread = |v: &mut dyn Iterator<Item = f32>| {
        let (lo, hi) = v.fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        hi - lo
    };
    // The words a move is made of: files, ranks, pieces, takes, check.
    let move_word = |t: &Token| {
        let k = t.key();
        ["file.", "rank.", "piece.", "word."]
            .iter()
            .any(|p| k.starts_with(p))
    };
    println!(
        "loudness (dBFS over speech, target {TARGET_DB}): spread as recorded {:.1} dB ({:.1} dB over the words of moves), as played {:.1} dB ({:.1} dB)",
        spread(&mut rows.iter().map(|r| r.1)),
        spread(&mut rows.iter().filter(|r| move_word(&r.0)).map(|r| r.1)),
        spread(&mut rows.iter().map(|r| r.2)),
        spread(&mut rows.iter().filter(|r| move_word(&r.0)).map(|r| r.2)),
    );
    rows.sort_by(|a, b| a.1.total_cmp(&b.1));
    let median = rows[rows.len() / 2].1;
    for (t, before, _) in &rows {
        if (before - median).abs() > FAR_OFF_DB {
            println!(
                "loudness: `{t}` is recorded at {before:.1} dBFS, {:+.1} dB off the pack's median ({median:.1}): levelled, but check the recording",
                before - median
            );
        }
    }
}

fn stats(files: &[PathBuf], voice: &str, style: Style, speed: f32) -> anyhow::Result<()> {
    let pack = VoicePack::load(
        find_pack(voice)?,
        &LoadOptions {
            speed,
            lenient: false,
        },
    )?;
    let rate = pack.at_rate(pack.sample_rate())?;
    let mut lengths: Vec<(f64, String)> = Vec::new();
    for file in files {
        let bytes =
            std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
        let plies = announce_pgn(&bytes, style).with_context(|| file.display().to_string())?;
        for p in plies {
            let secs = rate.rendered_len(&p.tokens) as f64 / f64::from(rate.rate());
            lengths.push((secs, format!("{} ({})", p.san, pack.text(&p.tokens))));
        }
    }
    if lengths.is_empty() {
        anyhow::bail!("no moves in the given games");
    }
    lengths.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = lengths.len();
    let mean = lengths.iter().map(|l| l.0).sum::<f64>() / n as f64;
    let (median, median_move) = &lengths[n / 2];
    let (min, min_move) = &lengths[0];
    let (max, max_move) = &lengths[n - 1];
    println!("announcements: {n}, voice {}, speed {speed}", pack.name());
    println!("median: {median:.2} s  e.g. {median_move}");
    println!("mean:   {mean:.2} s");
    println!("min:    {min:.2} s  {min_move}");
    println!("max:    {max:.2} s  {max_move}");
    Ok(())
}
