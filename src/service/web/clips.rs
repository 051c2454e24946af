//! The voice pack for the player's own browser: `GET /api/voice` (the
//! venue's pack: its name, rate, gap between words and a URL per token) and
//! `GET /api/voice/clips/{key}.wav` (each clip as played: trimmed, at the
//! chosen speed, levelled by loudness; 16-bit mono WAV at the pack's rate).
//! `GET /api/tables/{id}/voice` is the pack table `id` speaks with (its own
//! `voice`, or the venue's), its clips under
//! `/api/tables/{id}/voice/clips/`: the player's page fetches that one, so
//! the browser says what the table's own device says.
//!
//! The page fetches every clip once, keeps them decoded, and plays each
//! announcement from the token list on the live stream with the pack's gap
//! between words, so it sounds as the table's own device does. Token lists
//! rather than rendered audio per announcement: the default pack is about
//! 4.7 MB of clips fetched once at the start, against 40–90 kB per move
//! otherwise, and the first word then starts as soon as the event arrives
//! instead of after a download.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::api_types::VoiceManifest;
use crate::table::id::TableId;
use tactus_rules::token::Token;
use tactus_speech::sink::to_i16;
use tactus_speech::voice_pack::VoicePack;

/// The packs served: the venue's, and each table's.
#[derive(Clone)]
struct Packs {
    venue: Arc<VoicePack>,
    tables: Arc<BTreeMap<TableId, Arc<VoicePack>>>,
}

/// The routes, with the venue's pack and the pack of each table (by id).
pub fn routes(venue: Arc<VoicePack>, tables: BTreeMap<TableId, Arc<VoicePack>>) -> Router {
    super::routes::assemble([vec![
        ("/api/voice", get(venue_manifest)),
        ("/api/voice/clips/{file}", get(venue_clip)),
        ("/api/tables/{id}/voice", get(table_manifest)),
        ("/api/tables/{id}/voice/clips/{file}", get(table_clip)),
    ]])
    .with_state(Packs {
        venue,
        tables: Arc::new(tables),
    })
}

async fn venue_manifest(State(packs): State<Packs>) -> Response {
    manifest(&packs.venue, "/api/voice")
}

async fn venue_clip(State(packs): State<Packs>, Path(file): Path<String>) -> Response {
    clip(&packs.venue, &file)
}

async fn table_manifest(State(packs): State<Packs>, Path(id): Path<String>) -> Response {
    match packs.tables.get(id.as_str()) {
        Some(voice) => manifest(voice, &format!("/api/tables/{id}/voice")),
        None => no_table(&id),
    }
}

async fn table_clip(
    State(packs): State<Packs>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    match packs.tables.get(id.as_str()) {
        Some(voice) => clip(voice, &file),
        None => no_table(&id),
    }
}

fn no_table(id: &str) -> Response {
    super::error_response(StatusCode::NOT_FOUND, &format!("no table `{id}`"))
}

/// The manifest of `voice`, its clips under `base`/clips/.
fn manifest(voice: &VoicePack, base: &str) -> Response {
    let clips = Token::all()
        .into_iter()
        .filter(|t| voice.clip(*t).is_some())
        .map(|t| {
            let key = t.key();
            let url = format!("{base}/clips/{key}.wav");
            (key, url)
        })
        .collect();
    let body = VoiceManifest {
        clips,
        gap_ms: voice.gap_ms(),
        language: voice.tag().to_owned(),
        name: voice.name().to_owned(),
        rate: voice.sample_rate(),
    };
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        // Strings and numbers only: writing it cannot fail.
        serde_json::to_string(&body).unwrap_or_default(),
    )
        .into_response()
}

fn clip(voice: &VoicePack, file: &str) -> Response {
    // The one bounded `{"error": …}` body: a name of any length is quoted
    // cut.
    let not_found = || super::error_response(StatusCode::NOT_FOUND, &format!("no clip `{file}`"));
    let Some(key) = file.strip_suffix(".wav") else {
        return not_found();
    };
    let Some(samples) = Token::from_key(key).and_then(|t| voice.clip(t)) else {
        return not_found();
    };
    let bytes = wav_bytes(samples, voice.sample_rate());
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("audio/wav")),
            // Clips change only with the pack, which needs a restart.
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        bytes,
    )
        .into_response()
}

/// A 16-bit mono WAV file of `samples` at `rate`.
fn wav_bytes(samples: &[f32], rate: u32) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for &s in samples {
        out.extend_from_slice(&to_i16(s).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_are_valid_wav_files() {
        let bytes = wav_bytes(&[0.0, 0.5, -0.5], 22050);
        let r = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(r.spec().sample_rate, 22050);
        let s: Vec<i16> = r.into_samples().map(Result::unwrap).collect();
        assert_eq!(s, vec![0, 16384, -16384]);
    }
}
