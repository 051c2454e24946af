//! The competition's players: each listed player's own link for the whole
//! event (`/p/<code>`, typed as a braille reader reads it), where they play
//! now (`GET /api/players/me`), and the standings (`GET /api/standings`,
//! as JSON, as an HTML table and as BRF).

use super::access_table::OwnPlayer;
use axum::Extension;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Serialize;

use crate::service::i18n::escape;
use crate::service::security::codes::normalise_code;
use crate::service::store::player_settings::PlayerSettings;
use crate::table::round::Round;

use super::AppState;
use super::error::{ApiError, ApiResult};

use super::routes::Route;
use axum::routing::get;
/// The listed players: their own page's data and settings, the standings,
/// their short links (either case: a braille reader types the card's link
/// as BRF spells it, without capitals).
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/api/players/me", get(me)),
        (
            "/api/players/me/settings",
            get(my_settings).put(put_my_settings),
        ),
        ("/api/standings", get(standings)),
        ("/api/standings.brf", get(standings_brf)),
        ("/standings", get(standings_page)),
        ("/p/{code}", get(short_link)),
        ("/P/{code}", get(short_link)),
    ]
}

/// `GET /api/players/me`'s answer: where the token's player plays now.
#[derive(Debug, Serialize)]
pub struct Me {
    pub start_rank: u16,
    pub name: String,
    /// The latest round set up (`null` before the first).
    pub round: Option<Round>,
    /// Their table, board (the table's place in the venue), colour and
    /// opponent: `null` on a bye or when not paired, with `why`.
    pub table: Option<String>,
    pub board: Option<usize>,
    #[serde(with = "tactus_rules::side::option")]
    pub colour: Option<shakmaty::Color>,
    pub opponent: Option<Opponent>,
    /// Why there is no game, in English; `null` when there is one.
    pub why: Option<String>,
    /// Their own braille display (`braille` on their `[[player]]`):
    /// `connected`, `disconnected`, `failing`, `failed`; `null`: none.
    pub braille: Option<crate::table::display::DisplayState>,
    /// A team event's: their team (`null` in an individual event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamNamed>,
    /// A team event's: their team's match this round and their board in
    /// it (`null` without one).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub the_match: Option<PlayerMatch>,
}

/// A team, as a player's answer names it.
#[derive(Debug, Serialize)]
pub struct TeamNamed {
    pub number: u16,
    pub name: String,
}

/// A player's team's match in the latest round.
#[derive(Debug, Serialize)]
pub struct PlayerMatch {
    pub opponent: TeamNamed,
    /// Their board in the match, from 1.
    pub board: u16,
}

/// The opponent of [`Me`].
#[derive(Debug, Serialize)]
pub struct Opponent {
    pub start_rank: Option<u16>,
    pub name: String,
}

/// Where listed player `rank` plays now, and how they are shown.
async fn me_of(state: &AppState, rank: u16) -> ApiResult<Me> {
    let player = state.competition.listed(rank)?;
    let name = player.name.clone();
    let braille = state.player_displays.get(&rank).map(|d| d.get());
    let c = &state.competition;
    let team = c.team_of(rank).map(|t| TeamNamed {
        number: t.number,
        name: t.name.clone(),
    });
    let match_in = |round: &Round| {
        team.as_ref()?;
        let (opponent, board) = c.match_of(round, rank)?;
        let name = c
            .teams()
            .iter()
            .find(|t| t.number == opponent)
            .map_or_else(String::new, |t| t.name.clone());
        Some(PlayerMatch {
            opponent: TeamNamed {
                number: opponent,
                name,
            },
            board,
        })
    };
    Ok(match state.competition.seat_of(rank).await? {
        Ok(seat) => Me {
            the_match: match_in(&seat.round),
            team,
            start_rank: rank,
            name,
            round: Some(seat.round),
            table: Some(seat.table.to_string()),
            board: Some(seat.board),
            colour: Some(seat.colour),
            opponent: Some(Opponent {
                start_rank: seat.opponent.rank,
                name: seat.opponent.name,
            }),
            why: None,
            braille,
        },
        Err(none) => Me {
            the_match: none.round.as_ref().and_then(match_in),
            team,
            start_rank: rank,
            name,
            round: none.round,
            table: None,
            board: None,
            colour: None,
            opponent: None,
            why: Some(none.why),
            braille,
        },
    })
}

/// `GET /api/players/me`.
/// The access table's gate granted the player's own code.
pub(super) async fn me(
    State(state): State<AppState>,
    Extension(OwnPlayer(rank)): Extension<OwnPlayer>,
) -> ApiResult<Json<Me>> {
    Ok(Json(me_of(&state, rank).await?))
}

/// `GET /api/players/me/settings`: the player's own settings.
pub(super) async fn my_settings(
    State(state): State<AppState>,
    Extension(OwnPlayer(rank)): Extension<OwnPlayer>,
) -> ApiResult<Json<PlayerSettings>> {
    Ok(Json(state.competition.settings().of(rank)))
}

/// `PUT /api/players/me/settings`: replaces the player's own settings.
/// The token is checked before the body is read; a body that does not
/// read, or a value out of range, is 422 naming it, and nothing changes.
pub(super) async fn put_my_settings(
    State(state): State<AppState>,
    Extension(OwnPlayer(rank)): Extension<OwnPlayer>,
    body: axum::body::Body,
) -> ApiResult<Json<PlayerSettings>> {
    let bytes = axum::body::to_bytes(body, super::bodies::SETTINGS)
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("settings: at most {} bytes", super::bodies::SETTINGS),
            )
        })?;
    let settings: PlayerSettings = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("settings: {e}")))?;
    state
        .competition
        .settings()
        .set(rank, settings.clone())
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("journal: {e}")))?;
    Ok(Json(settings))
}

/// `GET /p/{code}`: a player's own link. To their game's player page with
/// their token when they have a game, otherwise a page saying why; an
/// unknown code is 404 (every code compared in constant time).
pub(super) async fn short_link(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> ApiResult<Response> {
    let not_found = || {
        ApiError(
            StatusCode::NOT_FOUND,
            "no player has this link: check the code on the card (letters and digits, any \
             case, dashes or not)"
                .into(),
        )
    };
    let code = normalise_code(&code).ok_or_else(not_found)?;
    let rank = state.tokens.player_of(&code).ok_or_else(not_found)?;
    let me = me_of(&state, rank).await?;
    if let (Some(table), Some(colour)) = (&me.table, me.colour) {
        // `plays`: their side, which at a both-blind table may be the one
        // the table's own board does not follow.
        let side = tactus_rules::side::name(colour);
        let to = format!("/table/{table}/player?plays={side}#token={code}");
        return Ok((
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, to),
                (header::CACHE_CONTROL, "no-store".to_owned()),
            ],
        )
            .into_response());
    }
    let why = me.why.as_deref().unwrap_or("");
    let body = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{name}: no game now</title></head><body><main>\
         <h1>{name}</h1><p role=\"status\">{why}.</p>\
         <p><a href=\"/p/{code}\">Look again</a> · <a href=\"/standings\">Standings</a></p>\
         </main></body></html>",
        name = escape(&me.name),
        why = escape(why),
    );
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(body)).into_response())
}

/// `GET /api/standings`: the players by points; a team event's teams
/// by match points and the `202` tie-breaks, with the board prizes.
pub(super) async fn standings(State(state): State<AppState>) -> ApiResult<Response> {
    if let Some(teams) = state.competition.team_standings().await? {
        return Ok(Json(teams).into_response());
    }
    Ok(Json(state.competition.standings().await?).into_response())
}

/// `GET /api/standings.brf?lang=`: the standings in the language's
/// literary braille, one player a line (place, name, points), 40 cells a
/// line, for an embosser or a braille display.
pub(super) async fn standings_brf(
    State(state): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<super::pages::PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let lang = super::pages::page_lang(&q, &headers);
    // A team event's: a team a line (rank, name, match and game points).
    let texts = match state.competition.team_standings().await? {
        Some(teams) => teams
            .teams
            .iter()
            .map(|t| {
                format!(
                    "{}. {} {} {}",
                    t.rank, t.name, t.match_points, t.game_points
                )
            })
            .collect(),
        None => state
            .competition
            .standings()
            .await?
            .iter()
            .map(|s| format!("{}. {} {}", s.place, s.name, s.points))
            .collect(),
    };
    let lines: Vec<String> = super::cards::literary(lang, texts)
        .await?
        .into_iter()
        .flatten()
        .collect();
    let mut body = lines.join("\r\n");
    body.push_str("\r\n");
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=us-ascii"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"standings.brf\"",
            ),
        ],
        body,
    )
        .into_response())
}

/// `GET /standings?lang=`: the standings as a real table (a caption,
/// column headers a screen reader announces with each cell, each player's
/// name a row header), sortable by any column from the keyboard
/// (`standings.js`), in the page's language.
pub(super) async fn standings_page(
    State(state): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<super::pages::PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    let lang = super::pages::page_lang(&q, &headers);
    // A team event's: the teams, the columns named for them.
    if let Some(teams) = state.competition.team_standings().await? {
        let rows: String = teams
            .teams
            .iter()
            .map(|t| {
                format!(
                    "<tr><td>{}</td><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>\n",
                    t.rank,
                    escape(&t.name),
                    t.match_points,
                    t.number
                )
            })
            .collect();
        let header = |key: &str| {
            format!(
                "data-kind=\"number\">{}</button>",
                crate::service::i18n::message(lang, key, &[])
            )
        };
        let page = crate::service::i18n::render(STANDINGS_HTML, lang, &[])
            .replace(
                &header("standings-points"),
                &header("standings-match-points"),
            )
            .replace(&header("standings-rank"), &header("standings-team-number"));
        return Ok(Html(page.replace("{{ROWS}}", &rows)));
    }
    let rows: String = state
        .competition
        .standings()
        .await?
        .iter()
        .map(|s| {
            format!(
                "<tr><td>{}</td><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>\n",
                s.place,
                escape(&s.name),
                s.points,
                s.start_rank
            )
        })
        .collect();
    let page = crate::service::i18n::render(STANDINGS_HTML, lang, &[]);
    Ok(Html(page.replace("{{ROWS}}", &rows)))
}

/// The standings page's template.
const STANDINGS_HTML: &str = include_str!("../pages/standings.html");
