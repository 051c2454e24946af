//! The competition's routes: a round set up from its pairings (JSON or the
//! pairing program's TRF-16 file), its clocks started together, and the
//! results read back (every round, a round's PGN for broadcasts, the TRF
//! with the results written in). Writes need the venue arbiter's token.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use axum::extract::rejection::JsonRejection;

use super::api_types::{ResultBody, RoundBody, RoundQuery};
use crate::service::competition::RoundError;
use crate::service::competition::views::RoundsView;
use crate::table::round::{BadRound, Round};

use super::AppState;
use super::api::pgn_response;
use super::error::{ApiError, ApiResult};

use super::routes::Route;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
/// The competition's rounds: set up (a TRF file's body may be larger than
/// the others), started, corrected, read, and the file given back.
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        (
            "/api/rounds",
            get(list)
                .post(set_up)
                .layer(DefaultBodyLimit::max(super::bodies::TRF)),
        ),
        (
            "/api/rounds/{n}/start",
            post(start).layer(DefaultBodyLimit::max(super::bodies::TRF)),
        ),
        (
            "/api/rounds/{n}/tables/{id}/result",
            post(correct_result).layer(DefaultBodyLimit::max(super::bodies::TRF)),
        ),
        ("/api/rounds/{n}/pgn", get(round_pgn)),
        ("/api/trf", get(trf)),
    ]
}

impl From<RoundError> for ApiError {
    fn from(e: RoundError) -> ApiError {
        let status = match &e {
            RoundError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            RoundError::UnknownTable { .. } | RoundError::NoRound(_) | RoundError::NoTrf => {
                StatusCode::NOT_FOUND
            }
            RoundError::UnderWay(_) | RoundError::Place(_) => StatusCode::CONFLICT,
            RoundError::NotListed(_) => StatusCode::FORBIDDEN,
            RoundError::Table(t) => return ApiError::from(t.clone()),
            RoundError::Journal(_) => StatusCode::SERVICE_UNAVAILABLE,
            RoundError::Unfinished(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError(status, e.to_string())
    }
}

/// `POST /api/rounds`: JSON pairings, or a TRF-16 file (`text/plain`,
/// `?round=N`).
pub(super) async fn set_up(
    State(state): State<AppState>,
    Query(q): Query<RoundQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let done = match kind.as_str() {
        "application/json" => {
            let body: RoundBody = serde_json::from_slice(&body)
                .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("the round: {e}")))?;
            state
                .competition
                .set_up(&body.round, &body.games, Vec::new(), None)
                .await?
        }
        "text/plain" => {
            let round = q.round.ok_or_else(|| {
                ApiError(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "a TRF file needs the round to set up: POST /api/rounds?round=N".into(),
                )
            })?;
            // As the pairing program wrote it: UTF-8 or a single-byte
            // code page, given back in the same bytes. A team engine's
            // list (teams, not players) is written into the last file
            // from the captains' line-ups first.
            let text = if crate::service::competition::is_team_pairings(&body) {
                let list = String::from_utf8_lossy(&body);
                let lineups = state.competition.lineups_for(&round);
                state
                    .competition
                    .trf_from_team_pairings(&list, &round, &lineups)
                    .await?
            } else {
                body.to_vec()
            };
            let (games, unpaired) = state.competition.pairings_from_trf(&text, &round)?;
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            state
                .competition
                .set_up(&round, &games, unpaired, Some((text, now)))
                .await?
        }
        other => {
            return Err(ApiError(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "a round is `application/json` pairings or a `text/plain` TRF file, not `{other}`"
                ),
            ));
        }
    };
    Ok((StatusCode::OK, Json(done)).into_response())
}

/// `GET /api/rounds`: every round with its games and results.
pub(super) async fn list(State(state): State<AppState>) -> ApiResult<Json<RoundsView>> {
    Ok(Json(state.competition.rounds().await?))
}

/// `GET /api/rounds/{n}/pgn`: every game of round N, live while played,
/// with an `ETag` (the text's SHA-256) so that a broadcast's poll with
/// `If-None-Match` is answered 304 while nothing changed.
pub(super) async fn round_pgn(
    State(state): State<AppState>,
    Path(round): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let round = round_named(round)?;
    let text = state.competition.round_pgn(&round).await?;
    let digest = ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    let etag: String = digest.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let etag = format!("\"{etag}\"");
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if matches {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    let name: String = round
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut response = pgn_response(text, &format!("round-{name}.pgn"));
    if let Ok(v) = header::HeaderValue::from_str(&etag) {
        response.headers_mut().insert(header::ETAG, v);
    }
    Ok(response)
}

/// `POST /api/rounds/{n}/start`: every clock of round N at once.
pub(super) async fn start(
    State(state): State<AppState>,
    Path(round): Path<String>,
) -> ApiResult<Response> {
    let round = round_named(round)?;
    let started = state.competition.start(&round).await?;
    Ok(Json(serde_json::json!({ "round": round, "started": started })).into_response())
}

/// `POST /api/rounds/{n}/tables/{id}/result`: the arbiter corrects the
/// result of round N's game at a table, finished or not.
pub(super) async fn correct_result(
    State(state): State<AppState>,
    Path((round, id)): Path<(String, String)>,
    body: Result<Json<ResultBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let round = round_named(round)?;
    let game = state
        .competition
        .correct_result(&round, &id, body.result, &body.reason, body.forfeit)
        .await?;
    Ok(Json(game).into_response())
}

/// `GET /api/trf`: the imported TRF file with the results of the games
/// finished at tactus tables written in. Every participant's birth date,
/// FIDE id, sex and federation are in it: the venue arbiter's only, never
/// kept by a cache.
pub(super) async fn trf(State(state): State<AppState>) -> ApiResult<Response> {
    let text = state.competition.trf_with_results().await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"tactus.trf\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response())
}

/// The round a path names: a text that is no round's name names none.
fn round_named(text: String) -> ApiResult<Round> {
    text.parse()
        .map_err(|e: BadRound| ApiError(StatusCode::NOT_FOUND, format!("no round: {e}")))
}
