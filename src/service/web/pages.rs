//! The HTML pages for player, assistant, arbiter and the sighted
//! opponent, in the language of
//! the request, and the static files they load.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::service::i18n;
use tactus_rules::language::Language;

use super::TablePath;
use super::error::{ApiError, ApiResult};
use super::{AppState, table};

use super::routes::Route;
use axum::routing::get;
/// The pages and their static files.
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/", get(index)),
        ("/table/{id}/player", get(player_page)),
        ("/table/{id}/assistant", get(assistant_page)),
        ("/table/{id}/opponent", get(opponent_page)),
        ("/arbiter", get(arbiter_overview)),
        ("/arbiter/{id}", get(arbiter_table)),
        ("/static/{file}", get(static_file)),
    ]
}

const STYLE: &str = include_str!("../pages/style.css");
const COMMON_JS: &str = include_str!("../pages/common.js");
const PLAYER_HTML: &str = include_str!("../pages/player.html");
const PLAYER_JS: &str = include_str!("../pages/player.js");
const BOARD_JS: &str = include_str!("../pages/board.js");
/// The sighted pages' board and its pieces (cburnett, `pieces.LICENSE.md`).
const SIGHTED_BOARD_JS: &str = include_str!("../pages/sighted-board.js");
const CAPTAIN_JS: &str = include_str!("../pages/captain.js");
const PIECES_JS: &str = include_str!("../pages/pieces.js");
const ASSISTANT_HTML: &str = include_str!("../pages/assistant.html");
const ASSISTANT_JS: &str = include_str!("../pages/assistant.js");
const ARBITER_HTML: &str = include_str!("../pages/arbiter.html");
const ARBITER_JS: &str = include_str!("../pages/arbiter.js");
const ROUNDS_JS: &str = include_str!("../pages/rounds.js");
const STANDINGS_JS: &str = include_str!("../pages/standings.js");
const OPPONENT_HTML: &str = include_str!("../pages/opponent.html");
const OPPONENT_JS: &str = include_str!("../pages/opponent.js");

/// The choice of piece letters for typed moves, on every page with a move box.
const NOTATION_HTML: &str = include_str!("../pages/notation.html");

/// The token form every page with writes has, for one role.
const ACCESS_HTML: &str = include_str!("../pages/access.html");

/// A page for table `id` (ids are URL-safe by configuration: letters,
/// digits, `-`, `_`, so they need no escaping in HTML) used by `role`, in
/// the language of the request (`i18n`).
pub(super) fn page(template: &str, id: &str, role: &str, lang: Language) -> Html<String> {
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
pub(super) struct PageQuery {
    pub(super) lang: Option<String>,
}

pub(super) fn page_lang(query: &PageQuery, headers: &HeaderMap) -> Language {
    i18n::negotiate(
        query.lang.as_deref(),
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

pub(super) async fn index(
    State(state): State<AppState>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> Html<String> {
    let lang = page_lang(&q, &headers);
    let mut rows = String::new();
    for id in state.tables.keys() {
        rows.push_str(&format!(
            "<li>{{{{t:index-row}}}} <a href=\"/table/{id}/player\">{{{{t:index-player}}}}</a>, <a href=\"/table/{id}/assistant\">{{{{t:index-assistant}}}}</a>, <a href=\"/arbiter/{id}\">{{{{t:index-arbiter}}}}</a>, <a href=\"/table/{id}/opponent\">{{{{t:index-opponent}}}}</a></li>\n"
        ).replace("{{t:index-row}}", &i18n::escape(&i18n::message(lang, "index-row", &[("table", id)]))));
    }
    Html(i18n::render(
        &format!(
            "<!doctype html>\n<html lang=\"{{{{LANG}}}}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>tactus</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n<body><main><h1>tactus</h1><p>{{{{t:index-intro}}}}</p><h2>{{{{t:index-tables}}}}</h2><ul>\n{rows}</ul><p><a href=\"/arbiter\">{{{{t:index-all}}}}</a></p>{{{{LANGS}}}}</main>{{{{MESSAGES}}}}<script type=\"module\" src=\"/static/common.js\"></script></body></html>\n"
        ),
        lang,
        &[],
    ))
}

pub(super) async fn player_page(
    State(state): State<AppState>,
    TablePath(id): TablePath,
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

pub(super) async fn assistant_page(
    State(state): State<AppState>,
    TablePath(id): TablePath,
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

/// The sighted opponent's page (D.2.11). Read only, like everything a
/// spectator may see: it shows what the table says and the clocks, which
/// the API gives anyone, so it needs no token and can be opened on any
/// phone at the table without handing a secret to it.
pub(super) async fn opponent_page(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    table(&state, &id)?;
    Ok(page(
        OPPONENT_HTML,
        &id,
        "role-opponent",
        page_lang(&q, &headers),
    ))
}

pub(super) async fn arbiter_overview(
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> Html<String> {
    page(ARBITER_HTML, "", "role-arbiter", page_lang(&q, &headers))
}

pub(super) async fn arbiter_table(
    State(state): State<AppState>,
    TablePath(id): TablePath,
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

pub(super) async fn static_file(Path(file): Path<String>) -> ApiResult<Response> {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "common.js" => (COMMON_JS, "text/javascript; charset=utf-8"),
        "player.js" => (PLAYER_JS, "text/javascript; charset=utf-8"),
        "board.js" => (BOARD_JS, "text/javascript; charset=utf-8"),
        "sighted-board.js" => (SIGHTED_BOARD_JS, "text/javascript; charset=utf-8"),
        "captain.js" => (CAPTAIN_JS, "text/javascript; charset=utf-8"),
        "pieces.js" => (PIECES_JS, "text/javascript; charset=utf-8"),
        "assistant.js" => (ASSISTANT_JS, "text/javascript; charset=utf-8"),
        "arbiter.js" => (ARBITER_JS, "text/javascript; charset=utf-8"),
        "rounds.js" => (ROUNDS_JS, "text/javascript; charset=utf-8"),
        "standings.js" => (STANDINGS_JS, "text/javascript; charset=utf-8"),
        "opponent.js" => (OPPONENT_JS, "text/javascript; charset=utf-8"),
        _ => return Err(ApiError(StatusCode::NOT_FOUND, format!("no file `{file}`"))),
    };
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
        body,
    )
        .into_response())
}
