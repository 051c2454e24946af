//! A team event's captains: one link per team for the whole event
//! (`/c/<code>`, typed as a braille reader reads it), their team and this
//! round's match (`GET /api/teams/me`), the next round's line-up
//! (`PUT /api/teams/{n}/lineup`, the captain's or the venue arbiter's
//! token), and every team's line-ups for the pairing program
//! (`GET /api/lineups?round=r`, the venue arbiter's: JSON, or TRF-26 `300`
//! records with `format=trf`).

use super::access_table::CaptainOf;
use axum::Extension;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::{Deserialize, Serialize};

use crate::service::competition::LineupRefused;
use crate::service::i18n::{self, escape};
use crate::service::security::codes::{grouped_code, normalise_code};
use crate::table::round::Round;
use tactus_rules::language::Language;

use super::AppState;
use super::api_types::LineupBody;
use super::error::{ApiError, ApiResult};

use super::routes::Route;
use axum::routing::{get, post, put};
/// A team event's captains: their team and match, line-ups, their page
/// (its link in either case, as a braille reader types it).
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/api/teams/me", get(me)),
        ("/api/teams/{n}/lineup", put(put_lineup)),
        ("/api/lineups", get(lineups)),
        ("/c/{code}", get(page)),
        ("/C/{code}", get(page)),
        ("/c/{code}/lineup", post(post_lineup)),
    ]
}

impl From<LineupRefused> for ApiError {
    fn from(e: LineupRefused) -> ApiError {
        let status = match e {
            // The journal's or a table's own status.
            LineupRefused::Round(r) => return ApiError::from(r),
            LineupRefused::NoTeam(_) => StatusCode::NOT_FOUND,
            LineupRefused::BadRound(_) | LineupRefused::Lineup(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            LineupRefused::SetUp(_) => StatusCode::CONFLICT,
        };
        ApiError(status, e.to_string())
    }
}

/// A team's line-up for a round.
#[derive(Debug, Serialize)]
pub struct LineupView {
    pub round: u16,
    pub number: u16,
    pub boards: Vec<u16>,
    /// Set by the captain (or the arbiter); `false`: the team's first
    /// players in order.
    pub set: bool,
}

/// `PUT /api/teams/{n}/lineup`: the team's line-up for a round not yet
/// set up. Refused (nothing changes): out of the team's order, another
/// team's player, fewer players than boards (422), the round set up (409).
pub(super) async fn put_lineup(
    State(state): State<AppState>,
    Path(team): Path<u16>,
    body: Result<Json<LineupBody>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Json<LineupView>> {
    // Its captain's or the venue arbiter's: the access table's gate checked.
    let Json(body) = body?;
    let boards = state
        .competition
        .set_lineup(body.round, team, body.boards)
        .await?;
    Ok(Json(LineupView {
        round: body.round,
        number: team,
        boards,
        set: true,
    }))
}

/// A team and a player, as the captain's answers name them.
#[derive(Debug, Serialize)]
pub struct Named {
    pub number: u16,
    pub name: String,
}

/// A player of the team.
#[derive(Debug, Serialize)]
pub struct TeamPlayer {
    pub start_rank: u16,
    pub name: String,
}

/// One board of the captain's match, live.
#[derive(Debug, Serialize)]
pub struct MatchBoardView {
    pub board: u16,
    /// The table it is played at, once the round is set up.
    pub table: Option<String>,
    /// The team's player and their colour.
    pub player: u16,
    #[serde(with = "tactus_rules::side::option")]
    pub colour: Option<shakmaty::Color>,
    pub opponent: u16,
    /// The opponent's name as the venue lists them ("" when it does not).
    pub opponent_name: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `null` while played.
    pub result: Option<String>,
}

/// This round's match of the captain's team.
#[derive(Debug, Serialize)]
pub struct MatchView {
    pub opponent: Named,
    pub boards: Vec<MatchBoardView>,
    /// Game points so far, the team's then the opponent's.
    pub score: [f64; 2],
}

/// `GET /api/teams/me`'s answer.
#[derive(Debug, Serialize)]
pub struct TeamMe {
    pub number: u16,
    pub name: String,
    pub players: Vec<TeamPlayer>,
    /// The latest round set up (`null` before the first).
    pub round: Option<Round>,
    /// Its match (`null`: no match, a bye, or before the first round).
    #[serde(rename = "match")]
    pub the_match: Option<MatchView>,
    /// The next round's line-up.
    pub lineup: LineupView,
}

/// The captain's team, from their own token.
fn team_of_captain(state: &AppState, token: &str) -> ApiResult<u16> {
    let team = state.tokens.captain_of(token).ok_or_else(|| {
        ApiError(
            StatusCode::FORBIDDEN,
            "this is not a captain's own token (the link on their card)".into(),
        )
    })?;
    listed_team(state, team)
}

/// Team `team`, if the venue file still lists it.
fn listed_team(state: &AppState, team: u16) -> ApiResult<u16> {
    if !state.competition.teams().iter().any(|t| t.number == team) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "[[team]] number = {team} is not in the venue file: a token of its captain is \
                 no longer valid"
            ),
        ));
    }
    Ok(team)
}

/// What the captain of `team` sees.
async fn team_me(state: &AppState, team: u16) -> ApiResult<TeamMe> {
    let c = &state.competition;
    let t = c
        .teams()
        .iter()
        .find(|t| t.number == team)
        .cloned()
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no team {team}")))?;
    let name_of = |rank: u16| {
        c.players()
            .iter()
            .find(|p| p.start_rank == rank)
            .map_or_else(String::new, |p| p.name.clone())
    };
    let players = t
        .players
        .iter()
        .map(|&r| TeamPlayer {
            start_rank: r,
            name: name_of(r),
        })
        .collect();
    let latest = c.rounds().await?.rounds.last().map(|r| r.round.clone());
    let the_match = match &latest {
        Some(round) => c.team_match(round, team).await?,
        None => None,
    }
    .map(|m| MatchView {
        opponent: Named {
            number: m.opponent,
            name: c
                .teams()
                .iter()
                .find(|o| o.number == m.opponent)
                .map_or_else(String::new, |o| o.name.clone()),
        },
        boards: m
            .boards
            .into_iter()
            .map(|b| MatchBoardView {
                board: b.board,
                table: b.table,
                player: b.player,
                colour: b.colour,
                opponent: b.opponent,
                opponent_name: name_of(b.opponent),
                result: b.result,
            })
            .collect(),
        score: [f64::from(m.score[0]) / 10.0, f64::from(m.score[1]) / 10.0],
    });
    let next = latest.as_ref().and_then(Round::number).map_or(1, |r| r + 1);
    let set = c.lineups_for_number(next).contains_key(&team);
    Ok(TeamMe {
        number: t.number,
        name: t.name.clone(),
        players,
        round: latest,
        the_match,
        lineup: LineupView {
            round: next,
            number: team,
            boards: c.lineup_of(next, team).unwrap_or_default(),
            set,
        },
    })
}

/// `GET /api/teams/me`: the captain's team, this round's match live, the
/// next round's line-up.
pub(super) async fn me(
    State(state): State<AppState>,
    Extension(CaptainOf(team)): Extension<CaptainOf>,
) -> ApiResult<Json<TeamMe>> {
    listed_team(&state, team)?;
    Ok(Json(team_me(&state, team).await?))
}

/// `GET /api/lineups`'s query.
#[derive(Debug, Deserialize)]
pub struct LineupsQuery {
    pub round: u16,
    /// `trf`: TRF-26 `300` records instead of JSON.
    #[serde(default)]
    pub format: Option<String>,
}

/// `GET /api/lineups?round=r[&format=trf]`: every team's line-up for
/// round `r` (the venue arbiter's): JSON, or the `300` records of those
/// out of the default order, for the pairing program.
pub(super) async fn lineups(
    State(state): State<AppState>,
    Query(q): Query<LineupsQuery>,
) -> ApiResult<Response> {
    // The venue arbiter's: the access table's gate checked.
    let c = &state.competition;
    let set = c.lineups_for_number(q.round);
    if q.format.as_deref() == Some("trf") {
        let mut text = String::new();
        for (team, boards) in &set {
            let record = tactus_rules::trf::Lineup {
                round: q.round,
                team: *team,
                opponent: 0,
                boards: boards.clone(),
                line: 0,
            };
            text.push_str(&record.to_record());
            text.push('\n');
        }
        return Ok(([(header::CONTENT_TYPE, "text/plain")], text).into_response());
    }
    let teams: Vec<LineupView> = c
        .teams()
        .iter()
        .map(|t| LineupView {
            round: q.round,
            number: t.number,
            boards: c.lineup_of(q.round, t.number).unwrap_or_default(),
            set: set.contains_key(&t.number),
        })
        .collect();
    Ok(Json(serde_json::json!({ "round": q.round, "teams": teams })).into_response())
}

/// The line-up form's fields: the round and each player who plays
/// (`play=<start rank>`, repeated), as a browser sends them
/// (`application/x-www-form-urlencoded`; the values are digits).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LineupForm {
    pub round: u16,
    pub play: Vec<u16>,
}

/// Why a line-up form's body was not read (HTTP 422).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormRefused {
    /// `round` or `play` whose value is not a number.
    #[error("{key}: `{value}` is not a number")]
    NotANumber { key: String, value: String },
    /// A field the form does not have.
    #[error("no field `{0}` in the line-up form")]
    UnknownField(String),
}

impl LineupForm {
    /// Reads the form's body; a field that is not a number is named.
    fn parse(body: &str) -> Result<LineupForm, FormRefused> {
        let mut form = LineupForm::default();
        for pair in body.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let number = |v: &str| {
                v.trim()
                    .parse::<u16>()
                    .map_err(|_| FormRefused::NotANumber {
                        key: key.to_owned(),
                        value: v.to_owned(),
                    })
            };
            match key {
                "round" => form.round = number(value)?,
                "play" => form.play.push(number(value)?),
                other => return Err(FormRefused::UnknownField(other.to_owned())),
            }
        }
        Ok(form)
    }
}

/// `GET /c/{code}`: the captain's page, screen reader first: the team,
/// this round's match board by board with the score, and the next round's
/// line-up as a form of check boxes in the team's order (no script
/// needed). An unknown code is 404.
pub(super) async fn page(
    State(state): State<AppState>,
    Path(code): Path<String>,
    Query(q): Query<super::pages::PageQuery>,
    headers: HeaderMap,
) -> ApiResult<Html<String>> {
    let team = captain_code(&state, &code)?;
    let me = team_me(&state, team).await?;
    let lang = super::pages::page_lang(&q, &headers);
    let code = grouped_code(&normalise_code(&code).unwrap_or_default());
    Ok(Html(captain_html(&me, &code, lang)))
}

/// `POST /c/{code}/lineup`: the page's form; back to the page.
pub(super) async fn post_lineup(
    State(state): State<AppState>,
    Path(code): Path<String>,
    body: String,
) -> ApiResult<Response> {
    let team = captain_code(&state, &code)?;
    let form = LineupForm::parse(&body)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    // In the team's order whatever order the boxes came in: the form
    // chooses who plays, the order is the team's.
    let order = state
        .competition
        .teams()
        .iter()
        .find(|t| t.number == team)
        .map(|t| t.players.clone())
        .unwrap_or_default();
    let mut boards: Vec<u16> = order
        .iter()
        .copied()
        .filter(|r| form.play.contains(r))
        .collect();
    boards.extend(form.play.iter().filter(|r| !order.contains(r)));
    state
        .competition
        .set_lineup(form.round, team, boards)
        .await?;
    Ok(Redirect::to(&format!("/c/{}", normalise_code(&code).unwrap_or_default())).into_response())
}

fn captain_code(state: &AppState, code: &str) -> ApiResult<u16> {
    let not_found = || {
        ApiError(
            StatusCode::NOT_FOUND,
            "no captain has this link: check the code on the card (letters and digits, any \
             case, dashes or not)"
                .into(),
        )
    };
    let code = normalise_code(code).ok_or_else(not_found)?;
    state.tokens.captain_of(&code).ok_or_else(not_found)?;
    team_of_captain(state, &code)
}

/// The captain's page in `lang`: headings to jump between, a list per
/// board, the score said in words, a form of check boxes.
fn captain_html(me: &TeamMe, code: &str, lang: Language) -> String {
    let m = |id: &str, args: &[(&str, &str)]| escape(&i18n::message(lang, id, args));
    let number = me.number.to_string();
    let mut body = format!(
        "<h1>{}</h1>\n<section id=\"match\">\n",
        m("captain-team", &[("number", &number), ("name", &me.name)])
    );
    body.push_str(&match_section(me, lang));
    // What changed in the match, said once by captain.js (a status line:
    // read without moving the focus).
    body.push_str(
        "</section>\n<p id=\"match-news\" role=\"status\" class=\"visually-hidden\"></p>\n",
    );
    body.push_str(&lineup_form(me, code, lang));
    format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n\
         <body>\n<main>\n{body}</main>\n\
         <script type=\"module\" src=\"/static/captain.js\"></script>\n</body>\n</html>\n",
        lang.code(),
        m("captain-title", &[("team", &me.name)])
    )
}

/// The captain's match this round, board by board with the score (the
/// part captain.js keeps current).
fn match_section(me: &TeamMe, lang: Language) -> String {
    let m = |id: &str, args: &[(&str, &str)]| escape(&i18n::message(lang, id, args));
    let mut body = String::new();
    match (&me.round, &me.the_match) {
        (Some(round), Some(x)) => {
            let round = round.to_string();
            let opponent = x.opponent.number.to_string();
            let (ours, theirs) = (x.score[0].to_string(), x.score[1].to_string());
            body.push_str(&format!(
                "<h2>{}</h2>\n<p>{}</p>\n<ol>\n",
                m(
                    "captain-round-against",
                    &[
                        ("round", &round),
                        ("number", &opponent),
                        ("name", &x.opponent.name)
                    ]
                ),
                m("captain-score", &[("ours", &ours), ("theirs", &theirs)])
            ));
            for b in &x.boards {
                let colour = match b.colour {
                    Some(shakmaty::Color::White) => i18n::message(lang, "white-lower", &[]),
                    Some(shakmaty::Color::Black) => i18n::message(lang, "black-lower", &[]),
                    None => i18n::message(lang, "captain-no-colour", &[]),
                };
                let table = b
                    .table
                    .clone()
                    .unwrap_or_else(|| i18n::message(lang, "captain-not-yet", &[]));
                let result = b
                    .result
                    .clone()
                    .unwrap_or_else(|| i18n::message(lang, "captain-playing", &[]));
                body.push_str(&format!(
                    "<li>{}</li>\n",
                    m(
                        "captain-board",
                        &[
                            ("board", &b.board.to_string()),
                            ("player", &player_name(me, b.player)),
                            ("colour", &colour),
                            (
                                "opponent",
                                &if b.opponent_name.is_empty() {
                                    b.opponent.to_string()
                                } else {
                                    b.opponent_name.clone()
                                },
                            ),
                            ("table", &table),
                            ("result", &result),
                        ]
                    )
                ));
            }
            body.push_str("</ol>\n");
        }
        (Some(round), None) => body.push_str(&format!(
            "<h2>{}</h2>\n<p>{}</p>\n",
            m("captain-round", &[("round", &round.to_string())]),
            m("captain-no-match", &[])
        )),
        (None, _) => body.push_str(&format!("<h2>{}</h2>\n", m("captain-no-round", &[]))),
    }
    body
}

/// The next round's line-up as a form of check boxes in the team's order
/// (no script needed), and the link to the standings.
fn lineup_form(me: &TeamMe, code: &str, lang: Language) -> String {
    let m = |id: &str, args: &[(&str, &str)]| escape(&i18n::message(lang, id, args));
    let mut body = String::new();
    let next = me.lineup.round.to_string();
    body.push_str(&format!(
        "<h2>{}</h2>\n<form method=\"post\" action=\"/c/{code}/lineup\">\n\
         <input type=\"hidden\" name=\"round\" value=\"{next}\">\n<fieldset><legend>{}</legend>\n",
        m("captain-lineup", &[("round", &next)]),
        m("captain-lineup-legend", &[])
    ));
    for p in &me.players {
        let checked = if me.lineup.boards.contains(&p.start_rank) {
            " checked"
        } else {
            ""
        };
        body.push_str(&format!(
            "<label><input type=\"checkbox\" name=\"play\" value=\"{}\"{checked}> {}</label><br>\n",
            p.start_rank,
            escape(&p.name)
        ));
    }
    body.push_str(&format!(
        "</fieldset>\n<button type=\"submit\">{}</button>\n</form>\n\
         <p><a href=\"/standings\">{}</a></p>\n",
        m("captain-lineup-submit", &[]),
        m("captain-standings", &[])
    ));
    body
}

fn player_name(me: &TeamMe, rank: u16) -> String {
    me.players
        .iter()
        .find(|p| p.start_rank == rank)
        .map_or_else(|| rank.to_string(), |p| p.name.clone())
}
