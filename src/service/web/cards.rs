//! Cards for the tables: what an organiser prints and lays on each table
//! so that nobody reads a 32-digit token aloud or types it into a phone.
//!
//! - `GET /arbiter/cards`: the printable page (`pages/cards.html`,
//!   `cards.js`), in the venue's language unless `?lang=` asks otherwise.
//!   It holds no token itself: its script sends the venue arbiter's token
//!   (from the link's `#token=` fragment, as every page does) to
//! - `GET /api/cards?lang=`: every card (venue arbiter token), one per table
//!   and person (player, assistant, arbiter, opponent page), each with its
//!   link as text and as a QR code (SVG, the `qrcode` crate);
//! - `GET /api/tables/{id}/card.brf?lang=`: the player's card in braille
//!   (BRF, 40 cells a line): the table, the colour, the link in computer
//!   braille (one cell per character, as a URL must be read). The venue
//!   arbiter's token or the table arbiter's.
//!
//! Links use the machine's LAN address when tactus listens on every
//! address (`addresses.rs`), never 127.0.0.1.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use qrcode::QrCode;
use qrcode::render::svg;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::TablePath;
use super::error::{ApiError, ApiResult};
use crate::service::i18n;
use crate::service::security::access::Tokens;
use crate::service::security::codes::{card_code, grouped_code, normalise_code};
use crate::table::handle::TableHandle;
use crate::table::id::TableId;
use tactus_braille::{cells, louis};
use tactus_rules::language::Language;

const CARDS_HTML: &str = include_str!("../pages/cards.html");
const CARDS_JS: &str = include_str!("../pages/cards.js");
const CARDS_CSS: &str = include_str!("../pages/cards.css");

/// Cells on one line of a BRF card: a common braille page and display.
pub const BRF_WIDTH: usize = 40;

/// One table as the cards show it: its current game.
#[derive(Debug, Clone)]
pub struct CardTable {
    pub id: TableId,
    /// The blind player's side.
    pub blind: Color,
    /// The number of the table's current game: the second blind player's
    /// token is this game's.
    pub game: u32,
    /// The current game's round (may be none).
    pub round: crate::table::round::Round,
}

/// What the card routes need.
#[derive(Clone)]
pub struct CardsState {
    pub tokens: Arc<Tokens>,
    /// Every table, asked for its current game when a card is made.
    pub tables: Arc<BTreeMap<TableId, TableHandle>>,
    /// `http://192.168.1.20:8080`: where the links point.
    pub base: String,
    /// The venue's page language (its voice pack's, if the pages have it).
    pub lang: Language,
    /// The listed players: each has a card of their own
    /// with their link for the whole event.
    pub players: Vec<crate::service::startup::config::PlayerConfig>,
    /// A team event's teams: each captain has a card with their link.
    pub teams: Vec<crate::service::startup::config::TeamConfig>,
}

/// The card routes, merged into the server's router.
pub fn routes(state: CardsState) -> Router {
    super::routes::assemble([vec![
        ("/arbiter/cards", get(page)),
        ("/static/cards.js", get(script)),
        ("/static/cards.css", get(style)),
        ("/api/cards", get(all_cards)),
        ("/api/tables/{id}/card.brf", get(player_brf)),
        ("/api/players/{rank}/card.brf", get(own_brf)),
        ("/api/teams/{n}/card.brf", get(captain_brf)),
        ("/api/tables/{id}/opponent-link", get(opponent_link_of)),
        // The cards' short links, in either case: BRF has no capitals,
        // and a braille reader types the link as the card spells it.
        ("/t/{code}", get(card_link)),
        ("/T/{code}", get(card_link)),
        ("/o/{id}", get(opponent_page_link)),
        ("/O/{id}", get(opponent_page_link)),
    ]])
    .with_state(state)
}

#[derive(Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

impl CardsState {
    /// `?lang=` if the pages have it, else the venue's language.
    fn lang(&self, q: &LangQuery) -> Language {
        match q.lang.as_deref() {
            Some(l) => i18n::negotiate(Some(l), Some(self.lang.code())),
            None => self.lang,
        }
    }
}

async fn page(State(s): State<CardsState>, Query(q): Query<LangQuery>) -> Html<String> {
    Html(i18n::render(CARDS_HTML, s.lang(&q), &[]))
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        CARDS_JS,
    )
        .into_response()
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        CARDS_CSS,
    )
        .into_response()
}

/// The bearer token of a request, if it has one.
/// One card.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub table: String,
    /// `player`, `opponent`, `assistant`, `arbiter`; `own` for a listed
    /// player's own link (no table: it follows them).
    pub role: &'static str,
    /// The role in the page's language.
    pub role_name: String,
    /// "Table 1", in the page's language.
    pub title: String,
    /// What the person does with it ("plays White"), may be empty.
    pub note: String,
    pub link: String,
    /// The link as a QR code, an SVG document.
    pub svg: String,
}

/// The cards' answer.
#[derive(Debug, Clone, Serialize)]
pub struct Cards {
    pub lang: Language,
    pub cards: Vec<Card>,
    /// What changed in the players' codes at this start (a renumbering, a
    /// rank given to another person, a new player): whose cards to print
    /// again. Each as data and as a sentence.
    pub code_changes: Vec<CodeChangeShown>,
}

/// One change of the players' codes, as the cards page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct CodeChangeShown {
    #[serde(flatten)]
    pub change: crate::service::security::access::CodeChange,
    pub text: String,
}

fn side_note(lang: Language, side: Color) -> String {
    i18n::message(
        lang,
        if side == Color::White {
            "card-plays-white"
        } else {
            "card-plays-black"
        },
        &[],
    )
}

/// Every table's current game, in table order.
pub async fn current(s: &CardsState) -> ApiResult<Vec<CardTable>> {
    let mut out = Vec::with_capacity(s.tables.len());
    for (id, handle) in s.tables.iter() {
        let v = handle.view().await?;
        out.push(CardTable {
            id: id.clone(),
            blind: v.blind,
            game: v.game,
            round: v.round,
        });
    }
    Ok(out)
}

/// The opponent's link at table `t`: the second blind player's, with the
/// code of the table's current game, or the sighted opponent's page.
/// Both short, and typed as read in any case (`/t/`, `/o/`).
fn opponent_link(s: &CardsState, t: &CardTable) -> (Option<Color>, String) {
    let (base, id) = (&s.base, &t.id);
    match s.tokens.opponent_token(id, t.game) {
        Some(token) => (Some(!t.blind), format!("{base}/t/{}", grouped_code(&token))),
        None => (None, format!("{base}/o/{id}")),
    }
}

/// A lasting role's short link at a table: `/t/` and its card code.
fn table_link(base: &str, token: &crate::service::security::secret::Secret) -> String {
    format!("{base}/t/{}", grouped_code(&card_code(token)))
}

/// `GET /t/{code}`: a table card's link. To the page of the person whose
/// code it is, with their token; an unknown code is 404 (every code
/// compared in constant time).
async fn card_link(State(s): State<CardsState>, Path(code): Path<String>) -> ApiResult<Response> {
    let not_found = || {
        ApiError(
            StatusCode::NOT_FOUND,
            "no table card has this link: check the code on the card (letters and digits, \
             any case, dashes or not)"
                .into(),
        )
    };
    let to = if let Some((id, role)) = s.tokens.card_holder(&code) {
        let tokens = s.tokens.table(&id).ok_or_else(not_found)?;
        use crate::table::actions::PersonRole;
        match role {
            PersonRole::Player => format!("/table/{id}/player#token={}", tokens.player.expose()),
            PersonRole::Assistant => {
                format!("/table/{id}/assistant#token={}", tokens.assistant.expose())
            }
            PersonRole::Arbiter => format!("/arbiter/{id}#token={}", tokens.arbiter.expose()),
            PersonRole::Opponent => return Err(not_found()),
        }
    } else {
        // A second blind player's code: their table's current game's.
        let code = normalise_code(&code).ok_or_else(not_found)?;
        let mut found = None;
        for (id, handle) in s.tables.iter() {
            if !s.tokens.has_second_blind(id) {
                continue;
            }
            let t = one_current(id, handle).await?;
            if s.tokens.opponent_at(id, t.game, &code) {
                let plays = tactus_rules::side::name(!t.blind);
                found = Some(format!("/table/{id}/player?plays={plays}#token={code}"));
            }
        }
        found.ok_or_else(not_found)?
    };
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, to),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response())
}

/// `GET /o/{id}`: the sighted opponent's page of table `id` (which needs
/// no token), the table's id matched in any case.
async fn opponent_page_link(
    State(s): State<CardsState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let id = s
        .tables
        .keys()
        .find(|t| t.as_str().eq_ignore_ascii_case(&id))
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "no such table".into()))?;
    Ok((
        StatusCode::SEE_OTHER,
        [(header::LOCATION, format!("/table/{id}/opponent"))],
    )
        .into_response())
}

/// Every card of the venue, in table order: player, opponent (the second
/// blind player's, for the tables' current games only, or the sighted
/// opponent's page), assistant, arbiter.
pub fn cards(s: &CardsState, tables: &[CardTable], lang: Language) -> Vec<Card> {
    let mut out = Vec::new();
    for t in tables {
        let Some(tokens) = s.tokens.table(&t.id) else {
            continue;
        };
        let id = &t.id;
        let base = &s.base;
        let links: Vec<(&'static str, String, String)> = vec![
            (
                "player",
                table_link(base, &tokens.player),
                side_note(lang, t.blind),
            ),
            ("opponent", opponent_link(s, t).1, side_note(lang, !t.blind)),
            (
                "assistant",
                table_link(base, &tokens.assistant),
                String::new(),
            ),
            ("arbiter", table_link(base, &tokens.arbiter), String::new()),
        ];
        for (role, link, note) in links {
            out.push(Card {
                table: id.to_string(),
                role,
                role_name: i18n::message(lang, &format!("role-{role}"), &[]),
                title: i18n::message(lang, "cards-table", &[("table", id)]),
                note,
                svg: qr_svg(&link),
                link,
            });
        }
    }
    out
}

/// Each listed player's own card: their name and start rank, and their
/// link for the whole event, `/p/` and their code in groups of four, which
/// reads the same typed in capitals from a braille card.
pub fn player_cards(s: &CardsState, lang: Language) -> Vec<Card> {
    s.players
        .iter()
        .filter_map(|p| player_card(s, p, lang))
        .collect()
}

/// Listed player `p`'s own card (none without a token).
fn player_card(
    s: &CardsState,
    p: &crate::service::startup::config::PlayerConfig,
    lang: Language,
) -> Option<Card> {
    let (rank, name) = (p.start_rank, &p.name);
    let code = s.tokens.player_token(rank)?;
    let link = format!(
        "{}/p/{}",
        s.base,
        crate::service::security::codes::grouped_code(code)
    );
    Some(Card {
        table: String::new(),
        role: "own",
        role_name: i18n::message(lang, "role-own", &[]),
        title: i18n::message(
            lang,
            "cards-player",
            &[("name", name), ("rank", &rank.to_string())],
        ),
        note: String::new(),
        svg: qr_svg(&link),
        link,
    })
}

/// Each team captain's card: the team's name and number, and the
/// captain's link for the whole event, `/c/` and their code in groups of
/// four, which reads the same typed in capitals from a braille card.
pub fn captain_cards(s: &CardsState, lang: Language) -> Vec<Card> {
    s.teams
        .iter()
        .filter_map(|t| captain_card(s, t, lang))
        .collect()
}

/// Team `t`'s captain's card (none without a token).
fn captain_card(
    s: &CardsState,
    t: &crate::service::startup::config::TeamConfig,
    lang: Language,
) -> Option<Card> {
    let code = s.tokens.captain_token(t.number)?;
    let link = format!(
        "{}/c/{}",
        s.base,
        crate::service::security::codes::grouped_code(code)
    );
    Some(Card {
        table: String::new(),
        role: "captain",
        role_name: i18n::message(lang, "role-captain", &[]),
        title: i18n::message(
            lang,
            "cards-captain",
            &[("name", &t.name), ("number", &t.number.to_string())],
        ),
        note: String::new(),
        svg: qr_svg(&link),
        link,
    })
}

/// `GET /api/teams/{n}/card.brf` (the venue arbiter): a captain's card in
/// braille: the team, then the link in computer braille.
async fn captain_brf(
    State(s): State<CardsState>,
    Path(number): Path<String>,
    Query(q): Query<LangQuery>,
) -> ApiResult<Response> {
    let lang = s.lang(&q);
    let card = number
        .parse::<u16>()
        .ok()
        .and_then(|n| s.teams.iter().find(|t| t.number == n))
        .and_then(|t| captain_card(&s, t, lang))
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no team `{number}`")))?;
    card_brf(
        lang,
        vec![card.title.clone()],
        &card.link,
        &format!("team-{number}-captain-card.brf"),
    )
    .await
}

/// `GET /api/players/{rank}/card.brf` (the venue arbiter): a listed
/// player's own card in braille: their name, then their link in computer
/// braille, which they type as they read it.
async fn own_brf(
    State(s): State<CardsState>,
    Path(rank): Path<String>,
    Query(q): Query<LangQuery>,
) -> ApiResult<Response> {
    let lang = s.lang(&q);
    let rank: u16 = rank
        .parse()
        .map_err(|_| ApiError(StatusCode::NOT_FOUND, format!("no player `{rank}`")))?;
    // Found by rank, not by place: a player without a token has no card.
    let card = s
        .players
        .iter()
        .find(|p| p.start_rank == rank)
        .and_then(|p| player_card(&s, p, lang))
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no listed player {rank}")))?;
    card_brf(
        lang,
        vec![card.title.clone()],
        &card.link,
        &format!("player-{rank}-card.brf"),
    )
    .await
}

/// The link as a QR code: SVG, black on white, with the quiet zone a
/// phone's camera needs.
pub fn qr_svg(link: &str) -> String {
    match QrCode::new(link.as_bytes()) {
        Ok(code) => code
            .render::<svg::Color<'_>>()
            .min_dimensions(160, 160)
            .quiet_zone(true)
            .build(),
        // A link is a few dozen bytes; a QR code holds over two thousand.
        Err(e) => format!("<!-- no QR code: {e} -->"),
    }
}

async fn all_cards(State(s): State<CardsState>, Query(q): Query<LangQuery>) -> ApiResult<Response> {
    let lang = s.lang(&q);
    let tables = current(&s).await?;
    let mut all = player_cards(&s, lang);
    all.extend(captain_cards(&s, lang));
    all.extend(cards(&s, &tables, lang));
    let code_changes = s
        .tokens
        .code_changes()
        .iter()
        .map(|c| CodeChangeShown {
            change: c.clone(),
            text: c.to_string(),
        })
        .collect();
    let body = Cards {
        lang,
        cards: all,
        code_changes,
    };
    Ok((
        // The answer holds every token: never kept by a cache.
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response())
}

/// Why a braille card could not be written.
fn unavailable(e: impl std::fmt::Display) -> ApiError {
    ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("braille: {e}"))
}

/// Texts in the literary braille of `lang`, each cut into lines (see
/// [`literary_lines`]); liblouis runs off the async workers.
pub(super) async fn literary(
    lang: Language,
    texts: Vec<String>,
) -> Result<Vec<Vec<String>>, ApiError> {
    crate::service::blocking::run(move || {
        texts
            .iter()
            .map(|text| literary_lines(lang, text))
            .collect::<Result<Vec<_>, _>>()
    })
    .await
    .map_err(unavailable)?
}

/// Text in the literary braille of `lang`, cut into lines of at most
/// [`BRF_WIDTH`] cells at blanks.
fn literary_lines(lang: Language, text: &str) -> Result<Vec<String>, ApiError> {
    let cells = louis::translate(louis::table_for(lang), text).map_err(unavailable)?;
    let mut lines = Vec::new();
    let mut rest: &[u8] = &cells;
    while rest.len() > BRF_WIDTH {
        let cut = rest[..=BRF_WIDTH]
            .iter()
            .rposition(|&c| c == cells::BLANK)
            .filter(|&i| i > 0)
            .unwrap_or(BRF_WIDTH);
        lines.push(cells::brf_line(&rest[..cut]));
        rest = &rest[cut..];
        while rest.first() == Some(&cells::BLANK) {
            rest = &rest[1..];
        }
    }
    lines.push(cells::brf_line(rest));
    Ok(lines)
}

/// A link in computer braille: each character its own cell (BRF is ASCII
/// braille, so the character is its cell), [`BRF_WIDTH`] to a line.
pub fn link_lines(link: &str) -> Vec<String> {
    let chars: Vec<char> = link
        .chars()
        .map(|c| c.to_ascii_uppercase())
        .filter(|&c| cells::from_brf(c).is_some())
        .collect();
    chars
        .chunks(BRF_WIDTH)
        .map(|l| l.iter().collect())
        .collect()
}

async fn player_brf(
    State(s): State<CardsState>,
    TablePath(id): TablePath,
    Query(q): Query<LangQuery>,
) -> ApiResult<Response> {
    let table = table_at(&s, &id)?;
    let lang = s.lang(&q);
    let current = vec![one_current(&id, table).await?];
    let card = cards(&s, &current, lang)
        .into_iter()
        .find(|c| c.role == "player")
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no tokens for table `{id}`")))?;
    let headings = vec![
        card.title.clone(),
        format!("{}, {}", card.role_name, card.note),
    ];
    card_brf(
        lang,
        headings,
        &card.link,
        &format!("table-{id}-player-card.brf"),
    )
    .await
}

/// A braille card as a BRF download: the card's `headings` in literary
/// braille, a blank line, "Your page:" and the link in computer braille,
/// never cached (it holds a token).
async fn card_brf(
    lang: Language,
    mut headings: Vec<String>,
    link: &str,
    file: &str,
) -> ApiResult<Response> {
    headings.push(i18n::message(lang, "card-brf-link", &[]));
    let mut texts = literary(lang, headings).await?;
    let your_page = texts.pop().unwrap_or_default();
    let mut lines: Vec<String> = texts.into_iter().flatten().collect();
    lines.push(String::new());
    lines.extend(your_page);
    lines.extend(link_lines(link));
    let mut body = lines.join("\r\n");
    body.push_str("\r\n");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=us-ascii".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response())
}

/// Table `id`'s handle (the access table's gate has checked the token:
/// the table's arbiter or the venue arbiter).
fn table_at<'a>(s: &'a CardsState, id: &TableId) -> ApiResult<&'a TableHandle> {
    s.tables
        .get(id)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no table `{id}`")))
}

async fn one_current(id: &TableId, table: &TableHandle) -> ApiResult<CardTable> {
    let v = table.view().await?;
    Ok(CardTable {
        id: id.clone(),
        blind: v.blind,
        game: v.game,
        round: v.round,
    })
}

/// The opponent's link of a table's current game, for the arbiter's page:
/// at a table where both players are blind, the arbiter hands each round's
/// second blind player the link of their game (the last one's stops
/// working when the next game is set up).
#[derive(Debug, Clone, Serialize)]
pub struct OpponentLink {
    /// The table's current game and its round.
    pub game: u32,
    pub round: crate::table::round::Round,
    /// The second blind player's side (`null`: the opponent is sighted and
    /// the link is their page, which needs no token).
    #[serde(serialize_with = "side_or_null")]
    pub plays: Option<Color>,
    pub link: String,
    /// The link as a QR code (SVG).
    pub svg: String,
}

fn side_or_null<S: serde::Serializer>(side: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(c) => s.serialize_str(tactus_rules::side::name(*c)),
        None => s.serialize_none(),
    }
}

async fn opponent_link_of(
    State(s): State<CardsState>,
    TablePath(id): TablePath,
) -> ApiResult<Response> {
    let table = table_at(&s, &id)?;
    let t = one_current(&id, table).await?;
    let (plays, link) = opponent_link(&s, &t);
    let body = OpponentLink {
        game: t.game,
        round: t.round,
        plays,
        svg: qr_svg(&link),
        link,
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], axum::Json(body)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_in_computer_braille_is_its_characters_forty_a_line() {
        let link = "http://192.168.1.20:8080/table/1/player#token=0123456789abcdef0123456789abcdef";
        let lines = link_lines(link);
        assert!(lines.iter().all(|l| l.chars().count() <= BRF_WIDTH));
        assert_eq!(lines.concat(), link.to_ascii_uppercase());
    }

    #[test]
    fn a_qr_code_is_an_svg() {
        let svg = qr_svg("http://192.168.1.20:8080/arbiter/1#token=00");
        assert!(svg.contains("<svg"), "{svg}");
    }
}
