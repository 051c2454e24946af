//! `tactus bench voice`: how long a move's announcement lasts, per voice
//! pack and per speaking rate (the player's and the table's rate, 0.7 to
//! 1.6, the pitch kept), over a set of games. Computed from the clips as
//! the table renders them (trimmed, levelled, stretched, the pack's gap
//! between words), not by playing them: the figures are the sound's own
//! length, the same on any machine.

use std::path::PathBuf;

use serde::Serialize;
use tactus_rules::announce::Style;
use tactus_rules::game_announcements::announce_pgn;
use tactus_speech::voice_pack::{LoadOptions, VoicePack, find_pack};

use super::error::BenchError;

/// The rates a player or an arbiter can choose.
pub const RATES: [f32; 10] = [0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6];

/// One pack at one rate.
#[derive(Debug, Clone, Serialize)]
pub struct VoiceRow {
    pub pack: String,
    pub rate: f32,
    pub moves: usize,
    pub median_s: f64,
    pub mean_s: f64,
    pub p90_s: f64,
    pub max_s: f64,
}

/// Every pack at every rate, over every move of `games` (PGN files).
pub fn run_voice(packs: &[String], games: &[PathBuf]) -> Result<Vec<VoiceRow>, BenchError> {
    let mut plies = Vec::new();
    for file in games {
        let bytes = std::fs::read(file)
            .map_err(BenchError::io(format!("cannot read {}", file.display())))?;
        let read = announce_pgn(&bytes, Style::Standard)
            .map_err(|e| BenchError::Missing(format!("{}: {e}", file.display())))?;
        plies.extend(read.into_iter().map(|p| p.tokens));
    }
    if plies.is_empty() {
        return Err(BenchError::Missing("no moves in the given games".into()));
    }
    let mut rows = Vec::new();
    for name in packs {
        let dir = find_pack(name).map_err(|e| BenchError::Missing(e.to_string()))?;
        for rate in RATES {
            let pack = VoicePack::load(
                &dir,
                &LoadOptions {
                    speed: rate,
                    lenient: false,
                },
            )
            .map_err(|e| BenchError::Missing(e.to_string()))?;
            let at = pack
                .at_rate(pack.sample_rate())
                .map_err(|e| BenchError::Missing(e.to_string()))?;
            let mut secs: Vec<f64> = plies
                .iter()
                .map(|t| at.rendered_len(t) as f64 / f64::from(at.rate()))
                .collect();
            secs.sort_by(f64::total_cmp);
            let n = secs.len();
            rows.push(VoiceRow {
                pack: name.clone(),
                rate,
                moves: n,
                median_s: secs[n / 2],
                mean_s: secs.iter().sum::<f64>() / n as f64,
                p90_s: secs[(n * 9 / 10).min(n - 1)],
                max_s: secs[n - 1],
            });
        }
    }
    Ok(rows)
}
