//! The web server: pages for player, assistant and arbiter, the JSON API
//! they use, and a live event stream (SSE) per table.
//!
//! Reads are open; every write names its role's token (`Authorization:
//! Bearer …`), checked before the body is read. Status codes: 400 malformed
//! JSON, 401 no token, 403 wrong token or not this role's to do, 404 unknown
//! table, 405 wrong method, 413 body over the limit, 422 a request that
//! does not fit the game (nothing changed), 503 not recorded.

use crate::rules::clock_announce::Shown;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use serde_json::json;
use shakmaty::{Color, Role as PieceRole};
use tokio_stream::wrappers::BroadcastStream;

use crate::rules::game::DrawClaim;
use crate::rules::sheet::Lang;
use crate::service::i18n;
use crate::service::tokens::{Role, Tokens};
use crate::table::action::Action;
use crate::table::actor::{TableError, TableHandle};
use crate::table::view::LiveEvent;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub tables: Arc<BTreeMap<String, TableHandle>>,
    pub tokens: Arc<Tokens>,
}

/// An error answer: a status and a sentence a person understands.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        let status = match e {
            TableError::Forbidden(_) => StatusCode::FORBIDDEN,
            TableError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            TableError::Journal(_) | TableError::Stopped => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        // A body over the limit is refused as such, not as malformed.
        let status = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, format!("malformed request: {}", e.body_text()))
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// The router with every page and API route.
pub fn router(state: AppState) -> Router {
    let writes = Router::new()
        .route("/api/tables/{id}/move", post(make_move))
        .route("/api/tables/{id}/clock/say", post(say_clock))
        .route("/api/tables/{id}/repeat", post(repeat))
        .route(
            "/api/tables/{id}/board/differences",
            post(board_differences),
        )
        .route("/api/tables/{id}/clock/start", post(clock_start))
        .route("/api/tables/{id}/clock/pause", post(clock_pause))
        .route("/api/tables/{id}/clock/resume", post(clock_resume))
        .route("/api/tables/{id}/clock/adjust", post(clock_adjust))
        .route("/api/tables/{id}/touched", post(touched))
        .route("/api/tables/{id}/draw/offer", post(draw_offer))
        .route("/api/tables/{id}/draw/decline", post(draw_decline))
        .route("/api/tables/{id}/draw/accept", post(draw_accept))
        .route(
            "/api/tables/{id}/draw/claim/threefold",
            post(claim_threefold),
        )
        .route("/api/tables/{id}/draw/claim/fifty", post(claim_fifty))
        .route("/api/tables/{id}/resign", post(resign))
        .route("/api/tables/{id}/flag", post(flag))
        .route("/api/tables/{id}/result", post(set_result))
        .route(
            "/api/tables/{id}/illegal/completed",
            post(illegal_completed),
        )
        .route("/api/tables/{id}/ruling", post(ruling))
        .route("/api/tables/{id}/promotion", post(promotion))
        .route_layer(middleware::from_fn_with_state(state.clone(), token_gate));
    Router::new()
        .route("/", get(index))
        .route("/table/{id}/player", get(player_page))
        .route("/table/{id}/assistant", get(assistant_page))
        .route("/arbiter", get(arbiter_overview))
        .route("/arbiter/{id}", get(arbiter_table))
        .route("/static/{file}", get(static_file))
        .route("/api/tables", get(list_tables))
        .route("/api/pgn", get(all_pgn))
        .route("/api/tables/{id}", get(one_table))
        .route("/api/tables/{id}/pgn", get(table_pgn))
        .route("/api/tables/{id}/brf", get(super::web_braille::table_brf))
        .route("/api/tables/{id}/events", get(events))
        .merge(writes)
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .with_state(state)
}

/// Every write names a known table and a token valid there before its body
/// is read: a stranger's request costs no body and gets 404, 401 or 403
/// whatever it carries.
async fn token_gate(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: Request,
    next: Next,
) -> Response {
    // Other methods go on to their 405.
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    match table(&state, &id).and_then(|_| role(&state, &id, request.headers())) {
        Ok(_) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

fn table<'a>(state: &'a AppState, id: &str) -> ApiResult<&'a TableHandle> {
    state
        .tables
        .get(id)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no table `{id}`")))
}

/// The role the request's bearer token grants at table `id`.
fn role(state: &AppState, id: &str, headers: &HeaderMap) -> ApiResult<Role> {
    let value = headers.get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "this needs a token: Authorization: Bearer <token>".into(),
        )
    })?;
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .ok_or_else(|| {
            ApiError(
                StatusCode::UNAUTHORIZED,
                "the Authorization header must be `Bearer <token>`".into(),
            )
        })?;
    state.tokens.role_of(id, token).ok_or_else(|| {
        ApiError(
            StatusCode::FORBIDDEN,
            format!("this token is not valid for table `{id}`"),
        )
    })
}

async fn act(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> ApiResult<Response> {
    let t = table(state, id)?;
    let role = role(state, id, headers)?;
    let reply = t.act(role, action).await?;
    Ok(Json(reply).into_response())
}

// ---- pages ----

const STYLE: &str = include_str!("pages/style.css");
const COMMON_JS: &str = include_str!("pages/common.js");
const PLAYER_HTML: &str = include_str!("pages/player.html");
const PLAYER_JS: &str = include_str!("pages/player.js");
const ASSISTANT_HTML: &str = include_str!("pages/assistant.html");
const ASSISTANT_JS: &str = include_str!("pages/assistant.js");
const ARBITER_HTML: &str = include_str!("pages/arbiter.html");
const ARBITER_JS: &str = include_str!("pages/arbiter.js");

/// The choice of piece letters for typed moves, on every page with a move box.
const NOTATION_HTML: &str = include_str!("pages/notation.html");

/// The token form every page with writes has, for one role.
const ACCESS_HTML: &str = include_str!("pages/access.html");

/// A page for table `id` (ids are URL-safe by configuration: letters,
/// digits, `-`, `_`, so they need no escaping in HTML) used by `role`, in
/// the language of the request (`i18n`).
fn page(template: &str, id: &str, role: &str, lang: &str) -> Html<String> {
    let role = i18n::escape(&i18n::message(lang, role, &[]));
    let filled = template
        .replace("{{NOTATION}}", NOTATION_HTML.trim_end())
        .replace("{{ACCESS}}", ACCESS_HTML);
    Html(
        i18n::render(
            &filled,
            lang,
            &[
                ("table", id),
                ("role", &role),
                ("example1", ""),
                ("example2", ""),
            ],
        )
        .replace("{{TABLE}}", id),
    )
}

/// The language a page is asked in: `?lang=`, else `Accept-Language`.
#[derive(Deserialize)]
struct PageQuery {
    lang: Option<String>,
}

fn page_lang(query: &PageQuery, headers: &HeaderMap) -> &'static str {
    i18n::negotiate(
        query.lang.as_deref(),
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

async fn index(
    State(state): State<AppState>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> Html<String> {
    let lang = page_lang(&q, &headers);
    let mut rows = String::new();
    for id in state.tables.keys() {
        rows.push_str(&format!(
            "<li>{{{{t:index-row}}}} <a href=\"/table/{id}/player\">{{{{t:index-player}}}}</a>, <a href=\"/table/{id}/assistant\">{{{{t:index-assistant}}}}</a>, <a href=\"/arbiter/{id}\">{{{{t:index-arbiter}}}}</a></li>\n"
        ).replace("{{t:index-row}}", &i18n::escape(&i18n::message(lang, "index-row", &[("table", id)]))));
    }
    Html(i18n::render(
        &format!(
            "<!doctype html>\n<html lang=\"{{{{LANG}}}}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>tactus</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n<body><main><h1>tactus</h1><p>{{{{t:index-intro}}}}</p><h2>{{{{t:index-tables}}}}</h2><ul>\n{rows}</ul><p><a href=\"/arbiter\">{{{{t:index-all}}}}</a></p>{{{{LANGS}}}}</main>{{{{MESSAGES}}}}<script src=\"/static/common.js\"></script></body></html>\n"
        ),
        lang,
        &[],
    ))
}

async fn player_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    table(&state, &id)?;
    let lang = page_lang(&q, &headers);
    let template = PLAYER_HTML
        .replace(
            "{{t:player-help-pieces}}",
            &i18n::render(
                "{{t:player-help-pieces}}",
                lang,
                &[
                    ("example1", "<kbd>p N</kbd>"),
                    ("example2", "<kbd>p k</kbd>"),
                ],
            ),
        )
        .replace(
            "{{t:player-help-line}}",
            &i18n::render(
                "{{t:player-help-line}}",
                lang,
                &[
                    ("example1", "<kbd>s e</kbd>"),
                    ("example2", "<kbd>s 4</kbd>"),
                ],
            ),
        );
    Ok(page(&template, &id, "role-player", lang))
}

async fn assistant_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    table(&state, &id)?;
    Ok(page(
        ASSISTANT_HTML,
        &id,
        "role-assistant",
        page_lang(&q, &headers),
    ))
}

async fn arbiter_overview(Query(q): Query<PageQuery>, headers: HeaderMap) -> Html<String> {
    page(ARBITER_HTML, "", "role-arbiter", page_lang(&q, &headers))
}

async fn arbiter_table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    table(&state, &id)?;
    Ok(page(
        ARBITER_HTML,
        &id,
        "role-arbiter",
        page_lang(&q, &headers),
    ))
}

async fn static_file(Path(file): Path<String>) -> ApiResult<Response> {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "common.js" => (COMMON_JS, "text/javascript; charset=utf-8"),
        "player.js" => (PLAYER_JS, "text/javascript; charset=utf-8"),
        "assistant.js" => (ASSISTANT_JS, "text/javascript; charset=utf-8"),
        "arbiter.js" => (ARBITER_JS, "text/javascript; charset=utf-8"),
        _ => return Err(ApiError(StatusCode::NOT_FOUND, format!("no file `{file}`"))),
    };
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
        body,
    )
        .into_response())
}

// ---- reads ----

async fn list_tables(State(state): State<AppState>) -> ApiResult<Response> {
    let mut views = Vec::with_capacity(state.tables.len());
    for t in state.tables.values() {
        views.push(t.view().await?);
    }
    Ok(Json(views).into_response())
}

async fn one_table(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    Ok(Json(table(&state, &id)?.view().await?).into_response())
}

fn pgn_response(text: String, name: &str) -> Response {
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

async fn table_pgn(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = table(&state, &id)?.pgn().await?;
    Ok(pgn_response(text, &format!("table-{id}.pgn")))
}

async fn all_pgn(State(state): State<AppState>) -> ApiResult<Response> {
    let mut all = String::new();
    for t in state.tables.values() {
        all.push_str(&t.pgn().await?);
        all.push('\n');
    }
    Ok(pgn_response(all, "tactus.pgn"))
}

/// The live stream: the table's state first, then every announcement and
/// every change. A client that cannot keep up is dropped (its stream ends;
/// a browser reconnects and gets the state first), never buffered for.
async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let t = table(&state, &id)?.clone();
    let rx = t.subscribe();
    let first = t.view().await?;
    let first = stream::once(async move { Ok(state_event(&first)) });
    drop(t);
    let rest = BroadcastStream::new(rx)
        .take_while(|item| std::future::ready(item.is_ok()))
        .filter_map(|item| async move {
            match item {
                Ok(LiveEvent::Announcement(a)) => Some(Ok(Event::default()
                    .event("announcement")
                    .data(serde_json::to_string(&a).unwrap_or_default()))),
                Ok(LiveEvent::State(v)) => Some(Ok(state_event(&v))),
                Err(_) => None,
            }
        });
    Ok(Sse::new(first.chain(rest)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

fn state_event(view: &crate::table::view::TableView) -> Event {
    Event::default()
        .event("state")
        .data(serde_json::to_string(view).unwrap_or_default())
}

// ---- writes ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    text: String,
    /// The piece letters: `auto`, `en`, `de`, `es`, `fr`, `nl`, …; left
    /// out, the table's `notation`.
    #[serde(default)]
    lang: Option<String>,
    /// The language of the page the move was typed on: under `auto` it
    /// settles an entry several languages read as different moves.
    #[serde(default)]
    page_lang: Option<String>,
}

/// A `lang` or `page_lang` of a request body; 422 if unknown.
fn move_lang(text: Option<&str>) -> ApiResult<Option<Lang>> {
    text.map(|l| {
        l.parse()
            .map_err(|e: String| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .transpose()
}

async fn make_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<MoveBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let lang = move_lang(body.lang.as_deref())?;
    let page_lang = move_lang(body.page_lang.as_deref())?;
    act(
        &state,
        &id,
        &headers,
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
        async fn $name(
            State(state): State<AppState>,
            Path(id): Path<String>,
            headers: HeaderMap,
        ) -> ApiResult<Response> {
            act(&state, &id, &headers, $action).await
        }
    };
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SayClockBody {
    /// `left` or `used`; the table's setting if absent.
    #[serde(default)]
    time: Option<Shown>,
}

/// The clock announcement; the body is optional (`{"time": "used"}`).
async fn say_clock(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    let time = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        let body: SayClockBody = serde_json::from_slice(&body)
            .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("malformed JSON: {e}")))?;
        body.time
    };
    act(&state, &id, &headers, Action::SayClock { time }).await
}
simple_action!(repeat, Action::Repeat);
simple_action!(board_differences, Action::BoardDifferences);
simple_action!(clock_start, Action::StartClock);
simple_action!(clock_pause, Action::PauseClock);
simple_action!(clock_resume, Action::ResumeClock);
simple_action!(draw_accept, Action::AcceptDraw);
simple_action!(flag, Action::ClaimFlag);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideBody {
    #[serde(with = "crate::rules::side")]
    side: Color,
}

macro_rules! side_action {
    ($name:ident, $make:expr) => {
        async fn $name(
            State(state): State<AppState>,
            Path(id): Path<String>,
            headers: HeaderMap,
            body: Result<Json<SideBody>, JsonRejection>,
        ) -> ApiResult<Response> {
            let Json(body) = body?;
            let make: fn(Color) -> Action = $make;
            act(&state, &id, &headers, make(body.side)).await
        }
    };
}

side_action!(draw_offer, |side| Action::OfferDraw { side });
side_action!(draw_decline, |side| Action::DeclineDraw { side });
side_action!(illegal_completed, |side| Action::IllegalCompleted { side });

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    #[serde(with = "crate::rules::side")]
    side: Color,
    /// The move that brings the repetition or the fifty moves about,
    /// declared but not made (9.2.1.1, 9.3.1); any notation.
    #[serde(default, rename = "move")]
    declared: Option<String>,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    page_lang: Option<String>,
}

async fn claim(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    body: Result<Json<ClaimBody>, JsonRejection>,
    claim: DrawClaim,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let lang = move_lang(body.lang.as_deref())?;
    let page_lang = move_lang(body.page_lang.as_deref())?;
    let action = Action::ClaimDraw {
        side: body.side,
        claim,
        declared: body.declared,
        lang,
        page_lang,
    };
    act(state, id, headers, action).await
}

async fn claim_threefold(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ClaimBody>, JsonRejection>,
) -> ApiResult<Response> {
    claim(&state, &id, &headers, body, DrawClaim::Threefold).await
}

async fn claim_fifty(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ClaimBody>, JsonRejection>,
) -> ApiResult<Response> {
    claim(&state, &id, &headers, body, DrawClaim::FiftyMoves).await
}
side_action!(resign, |side| Action::Resign { side });

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdjustBody {
    #[serde(with = "crate::rules::side")]
    side: Color,
    /// Seconds to add (negative: to take).
    seconds: f64,
    #[serde(default)]
    reason: String,
}

async fn clock_adjust(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
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
        &headers,
        Action::AdjustClock {
            side: body.side,
            millis,
            reason: body.reason,
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TouchBody {
    #[serde(with = "crate::rules::side")]
    side: Color,
    square: String,
}

async fn touched(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<TouchBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    act(
        &state,
        &id,
        &headers,
        Action::Touched {
            side: body.side,
            square: body.square,
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    result: String,
    #[serde(default)]
    reason: String,
}

async fn set_result(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ResultBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let reason = if body.reason.trim().is_empty() {
        "arbiter's decision".to_owned()
    } else {
        body.reason
    };
    act(
        &state,
        &id,
        &headers,
        Action::SetResult {
            result: body.result,
            reason,
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulingBody {
    white_sheet: String,
    black_sheet: String,
    #[serde(default)]
    apply: bool,
}

async fn ruling(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<RulingBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let t = table(&state, &id)?;
    let role = role(&state, &id, &headers)?;
    let reply = t
        .act(
            role,
            Action::Ruling {
                white_sheet: body.white_sheet,
                black_sheet: body.black_sheet,
                apply: body.apply,
            },
        )
        .await?;
    // The ruling itself is the answer.
    Ok(Json(reply.data.unwrap_or_default()).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PromotionBody {
    /// `q`, `r`, `b` or `n` (or the English name).
    piece: String,
}

async fn promotion(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<PromotionBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(body) = body?;
    let role = match body.piece.to_ascii_lowercase().as_str() {
        "q" | "queen" => PieceRole::Queen,
        "r" | "rook" => PieceRole::Rook,
        "b" | "bishop" => PieceRole::Bishop,
        "n" | "knight" => PieceRole::Knight,
        other => {
            return Err(ApiError(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("`{other}` is not a promotion piece: q, r, b or n"),
            ));
        }
    };
    act(&state, &id, &headers, Action::NamePromotion(role)).await
}
