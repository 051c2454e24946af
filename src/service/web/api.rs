//! The JSON API of the tables: reads (state, PGN) and writes (moves,
//! clock, claims, results, rulings), each write on behalf of a role.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Extension, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use shakmaty::{ByColor, Color};

use std::sync::Arc;

use super::TablePath;
use super::api_types::{
    AdjustBody, BodyLang, ClaimBody, MoveBody, PromotionBody, RateBody, ResultBody, RulingBody,
    SayClockBody, SideBody, TouchBody,
};
use crate::table::actions::{Action, PersonRole};
use crate::table::id::TableId;
use tactus_rules::event::DrawClaim;
use tactus_rules::language::Language;
use tactus_rules::notation::Lang;
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

use super::auth::Granted;
use super::error::{ApiError, ApiResult};
use super::{AppState, table};

use super::routes::Route;
use axum::routing::{get, post};
/// The tables' API: reads, and every write of a game.
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/api/tables", get(list_tables)),
        ("/api/pgn", get(all_pgn)),
        ("/api/tables/{id}", get(one_table)),
        ("/api/tables/{id}/pgn", get(table_pgn)),
        ("/api/tables/{id}/move", post(make_move)),
        ("/api/tables/{id}/clock/say", post(say_clock)),
        ("/api/tables/{id}/repeat", post(repeat)),
        (
            "/api/tables/{id}/board/differences",
            post(board_differences),
        ),
        ("/api/tables/{id}/clock/start", post(clock_start)),
        ("/api/tables/{id}/clock/pause", post(clock_pause)),
        ("/api/tables/{id}/clock/resume", post(clock_resume)),
        ("/api/tables/{id}/clock/adjust", post(clock_adjust)),
        ("/api/tables/{id}/touched", post(touched)),
        ("/api/tables/{id}/draw/offer", post(draw_offer)),
        ("/api/tables/{id}/draw/decline", post(draw_decline)),
        ("/api/tables/{id}/draw/accept", post(draw_accept)),
        (
            "/api/tables/{id}/draw/claim/threefold",
            post(claim_threefold),
        ),
        ("/api/tables/{id}/draw/claim/fifty", post(claim_fifty)),
        ("/api/tables/{id}/resign", post(resign)),
        ("/api/tables/{id}/flag", post(flag)),
        ("/api/tables/{id}/result", post(set_result)),
        (
            "/api/tables/{id}/illegal/completed",
            post(illegal_completed),
        ),
        ("/api/tables/{id}/ruling", post(ruling)),
        ("/api/tables/{id}/promotion", post(promotion)),
        ("/api/tables/{id}/rate", post(set_rate)),
    ]
}

pub(super) async fn act(
    state: &AppState,
    id: &TableId,
    granted: Granted,
    action: Action,
) -> ApiResult<Response> {
    let t = table(state, id)?;
    let reply = t.act_in(granted.game, granted.role, action).await?;
    Ok(Json(reply).into_response())
}

pub(super) async fn list_tables(State(state): State<AppState>) -> ApiResult<Response> {
    let mut views = Vec::with_capacity(state.tables.len());
    for t in state.tables.values() {
        views.push(t.view().await?);
    }
    Ok(Json(views).into_response())
}

pub(super) async fn one_table(
    State(state): State<AppState>,
    TablePath(id): TablePath,
) -> ApiResult<Response> {
    Ok(Json(table(&state, &id)?.view().await?).into_response())
}

pub(super) fn pgn_response(text: String, name: &str) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}

pub(super) async fn table_pgn(
    State(state): State<AppState>,
    TablePath(id): TablePath,
) -> ApiResult<Response> {
    let text = table(&state, &id)?.pgn().await?;
    Ok(pgn_response(text, &format!("table-{id}.pgn")))
}

pub(super) async fn all_pgn(State(state): State<AppState>) -> ApiResult<Response> {
    let mut all = String::new();
    for t in state.tables.values() {
        all.push_str(&t.pgn().await?);
        all.push('\n');
    }
    Ok(pgn_response(all, "tactus.pgn"))
}

/// A `lang` or `page_lang` of a request body; 422 if unknown.
fn move_lang(lang: Option<&BodyLang>) -> ApiResult<Option<Lang>> {
    lang.map(|l| {
        l.known()
            .map_err(|why| ApiError(StatusCode::UNPROCESSABLE_ENTITY, why.to_owned()))
    })
    .transpose()
}

/// A `page_lang`: the same values as `lang`, `auto` saying no more than
/// leaving it out, and `it` the letters Italian shares with Spanish.
fn page_language(lang: Option<&BodyLang>) -> ApiResult<Option<Language>> {
    Ok(move_lang(lang)?.and_then(Lang::language))
}

pub(super) async fn make_move(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<MoveBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let lang = move_lang(body.lang.as_ref())?;
    let page_lang = page_language(body.page_lang.as_ref())?;
    act(
        &state,
        &id,
        granted,
        Action::Move {
            text: body.text,
            lang,
            page_lang,
        },
    )
    .await
}

macro_rules! simple_action {
    ($name:ident, $action:expr) => {
        pub(super) async fn $name(
            State(state): State<AppState>,
            TablePath(id): TablePath,
            Extension(granted): Extension<Granted>,
        ) -> ApiResult<Response> {
            act(&state, &id, granted, $action).await
        }
    };
}

/// The clock announcement; the body is optional (`{"time": "used"}`).
pub(super) async fn say_clock(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    let time = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        let body: SayClockBody = serde_json::from_slice(&body)
            .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("malformed JSON: {e}")))?;
        body.time
    };
    act(&state, &id, granted, Action::SayClock { time }).await
}
simple_action!(repeat, Action::Repeat);
simple_action!(board_differences, Action::BoardDifferences);
simple_action!(clock_start, Action::StartClock);
simple_action!(clock_pause, Action::PauseClock);
simple_action!(clock_resume, Action::ResumeClock);
simple_action!(draw_accept, Action::AcceptDraw);
simple_action!(flag, Action::ClaimFlag);

macro_rules! side_action {
    ($name:ident, $make:expr) => {
        pub(super) async fn $name(
            State(state): State<AppState>,
            TablePath(id): TablePath,
            Extension(granted): Extension<Granted>,
            body: Result<Json<SideBody>, JsonRejection>,
        ) -> ApiResult<Response> {
            let Json(body) = body?;
            let make: fn(Color) -> Action = $make;
            act(&state, &id, granted, make(body.side)).await
        }
    };
}

side_action!(draw_offer, |side| Action::OfferDraw { side });
side_action!(draw_decline, |side| Action::DeclineDraw { side });
side_action!(illegal_completed, |side| Action::IllegalCompleted { side });

pub(super) async fn claim(
    state: &AppState,
    id: &TableId,
    granted: Granted,
    body: Result<Json<ClaimBody>, JsonRejection>,
    claim: DrawClaim,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let lang = move_lang(body.lang.as_ref())?;
    let page_lang = page_language(body.page_lang.as_ref())?;
    let action = Action::ClaimDraw {
        side: body.side,
        claim,
        declared: body.declared,
        lang,
        page_lang,
    };
    act(state, id, granted, action).await
}

pub(super) async fn claim_threefold(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<ClaimBody>, JsonRejection>,
) -> ApiResult<Response> {
    claim(&state, &id, granted, body, DrawClaim::Threefold).await
}

pub(super) async fn claim_fifty(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<ClaimBody>, JsonRejection>,
) -> ApiResult<Response> {
    claim(&state, &id, granted, body, DrawClaim::FiftyMoves).await
}
side_action!(resign, |side| Action::Resign { side });

pub(super) async fn clock_adjust(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<AdjustBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    // Ten hours either way is more than any adjustment the Laws foresee.
    if !body.seconds.is_finite() || body.seconds.abs() > 36_000.0 {
        return Err(ApiError(
            StatusCode::UNPROCESSABLE_ENTITY,
            "seconds must be a number between -36000 and 36000".into(),
        ));
    }
    let millis = (body.seconds * 1000.0).round() as i64;
    act(
        &state,
        &id,
        granted,
        Action::AdjustClock {
            side: body.side,
            millis,
            reason: body.reason,
        },
    )
    .await
}

pub(super) async fn touched(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<TouchBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    act(
        &state,
        &id,
        granted,
        Action::Touched {
            side: body.side,
            square: body.square,
        },
    )
    .await
}

pub(super) async fn set_result(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<ResultBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    if body.forfeit.is_some() {
        return Err(ApiError(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "forfeit: a forfeit is recorded in a round: POST \
                 /api/rounds/<round>/tables/{id}/result"
            ),
        ));
    }
    let result = body.result;
    let reason = if body.reason.trim().is_empty() {
        "arbiter's decision".to_owned()
    } else {
        body.reason
    };
    act(&state, &id, granted, Action::SetResult { result, reason }).await
}

pub(super) async fn ruling(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<RulingBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let t = table(&state, &id)?;
    let reply = t
        .act_in(
            granted.game,
            granted.role,
            Action::Ruling {
                sheets: ByColor {
                    white: body.white_sheet,
                    black: body.black_sheet,
                },
                apply: body.apply,
            },
        )
        .await?;
    // The ruling itself is the answer.
    Ok(Json(reply.data).into_response())
}

pub(super) async fn promotion(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<PromotionBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    act(&state, &id, granted, Action::NamePromotion(body.piece)).await
}

/// `POST /api/tables/{id}/rate`: the arbiter sets the table's speaking
/// rate. The table's pack is loaded again at that rate off the async
/// workers, the table speaks with it from its next announcement, and the
/// rate is journaled (a restart keeps it). Answers the table's state.
pub(super) async fn set_rate(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Extension(granted): Extension<Granted>,
    body: Result<Json<RateBody>, JsonRejection>,
) -> ApiResult<Response> {
    let t = table(&state, &id)?;
    if granted.role != PersonRole::Arbiter {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "the table's speaking rate is the arbiter's to set".into(),
        ));
    }
    let Json(body) = body?;
    let rate = crate::service::store::player_settings::Rate::try_from(body.rate)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let rate = f64::from(rate) as f32;
    let current = t.voice()?;
    let dir = current.dir().to_owned();
    let loaded = crate::service::blocking::run(move || {
        VoicePack::load(
            &dir,
            &LoadOptions {
                speed: rate,
                // It loaded before: words that had no clip still have none.
                lenient: true,
            },
        )
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("voice pack: {e}")))?;
    t.set_voice(Arc::new(loaded)).await?;
    state
        .rates
        .insert(t.id.clone(), rate)
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("journal: {e}")))?;
    Ok(Json(t.view().await?).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_language_reads_as_a_move_language_does() {
        // As a body gives it.
        let read = |text: &str| -> BodyLang { serde_json::from_value(text.into()).unwrap() };
        assert_eq!(page_language(None).unwrap(), None);
        assert_eq!(page_language(Some(&read("auto"))).unwrap(), None);
        assert_eq!(
            page_language(Some(&read("de"))).unwrap(),
            Some(Language::De)
        );
        assert_eq!(
            page_language(Some(&read("it"))).unwrap(),
            Some(Language::Es)
        );
        assert_eq!(
            page_language(Some(&read("SV"))).unwrap(),
            Some(Language::De)
        );
        let refused = page_language(Some(&read("ru"))).unwrap_err();
        assert_eq!(refused.0, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
