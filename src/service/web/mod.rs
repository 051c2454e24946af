//! The web server: pages for player, assistant and arbiter, the JSON API
//! they use, and a live event stream (SSE) per table.
//!
//! Reads are open; every write names its role's token (`Authorization:
//! Bearer …`), checked before the body is read. Status codes: 400 malformed
//! JSON, 401 no token, 403 wrong token or not this role's to do, 404 unknown
//! table, 405 wrong method, 413 body over the limit, 422 a request that
//! does not fit the game (nothing changed), 503 not recorded.

pub mod access_table;
pub mod admission;
mod api;
pub mod api_types;
mod auth;
mod bodies;
mod braille;
pub mod cards;
pub mod clips;
mod error;
pub mod hall;
pub mod headers;
pub mod listener;
mod live;
mod pages;
mod players;
mod rounds;
pub mod streams;
mod table_path;
mod teams;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::middleware;
use axum::routing::{get, post, put};
use table_path::TablePath;

use crate::service::competition::Competition;
use crate::service::security::access::Tokens;
use crate::table::handle::TableHandle;
use crate::table::id::TableId;

use self::error::{ApiError, ApiResult};
pub use self::error::{error_response, json_errors};

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub tables: Arc<BTreeMap<TableId, TableHandle>>,
    pub tokens: Arc<Tokens>,
    pub competition: Arc<Competition>,
    /// The live streams' counts and tickets ([`streams`]).
    pub streams: streams::StreamGate,
    /// The listed players' own braille displays, by start rank.
    pub player_displays: Arc<BTreeMap<u16, crate::table::display::DisplayStatus>>,
    /// The tables' speaking rates as their arbiters set them.
    pub rates: Arc<crate::service::store::table_rates::TableRates>,
    /// The tables' braille records, kept while their games are unchanged.
    pub braille: braille::RecordCache,
}

/// `app` (the router and every route merged into it: the cards, the hall
/// check, the clips) behind the guards that hold for every route: a
/// crowded server serves known tokens first, and the venue arbiter's token
/// is refused over plain HTTP from beyond this computer.
pub fn guarded(app: Router, state: AppState) -> Router {
    // Innermost first: who may (the access table, before any body is
    // read), then how large a body may be; then the limits of every route.
    app.route_layer(middleware::from_fn(self::bodies::announced))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            self::access_table::gate,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(self::bodies::OTHER))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            self::auth::venue_over_plain,
        ))
        .layer(middleware::from_fn_with_state(
            state,
            self::auth::crowded_gate,
        ))
}

/// The whole web edge as `tactus serve` answers: every page and API route
/// (the tables', the competition's, the hall check's, the voice packs' and
/// the cards'), behind the guards every route has, with axum's own error
/// answers (a 405, a query it cannot read) made the one bounded
/// `{"error": …}` body too.
pub fn app(
    state: AppState,
    voices: (
        Arc<tactus_speech::voice_pack::VoicePack>,
        BTreeMap<TableId, Arc<tactus_speech::voice_pack::VoicePack>>,
    ),
    cards: cards::CardsState,
) -> Router {
    let routes = router(state.clone())
        .merge(hall::routes(state.clone()))
        .merge(clips::routes(voices.0, voices.1))
        .merge(cards::routes(cards));
    guarded(routes, state).layer(middleware::map_response(json_errors))
}

/// The pages and the API of the tables, the competition and the players
/// (without the guards: [`app`] is the whole edge).
pub fn router(state: AppState) -> Router {
    let writes = Router::new()
        .route("/api/tables/{id}/move", post(api::make_move))
        .route("/api/tables/{id}/clock/say", post(api::say_clock))
        .route("/api/tables/{id}/repeat", post(api::repeat))
        .route(
            "/api/tables/{id}/board/differences",
            post(api::board_differences),
        )
        .route("/api/tables/{id}/clock/start", post(api::clock_start))
        .route("/api/tables/{id}/clock/pause", post(api::clock_pause))
        .route("/api/tables/{id}/clock/resume", post(api::clock_resume))
        .route("/api/tables/{id}/clock/adjust", post(api::clock_adjust))
        .route("/api/tables/{id}/touched", post(api::touched))
        .route("/api/tables/{id}/draw/offer", post(api::draw_offer))
        .route("/api/tables/{id}/draw/decline", post(api::draw_decline))
        .route("/api/tables/{id}/draw/accept", post(api::draw_accept))
        .route(
            "/api/tables/{id}/draw/claim/threefold",
            post(api::claim_threefold),
        )
        .route("/api/tables/{id}/draw/claim/fifty", post(api::claim_fifty))
        .route("/api/tables/{id}/resign", post(api::resign))
        .route("/api/tables/{id}/flag", post(api::flag))
        .route("/api/tables/{id}/result", post(api::set_result))
        .route(
            "/api/tables/{id}/illegal/completed",
            post(api::illegal_completed),
        )
        .route("/api/tables/{id}/ruling", post(api::ruling))
        .route("/api/tables/{id}/promotion", post(api::promotion))
        .route("/api/tables/{id}/rate", post(api::set_rate))
        .route("/api/tables/{id}/stream-ticket", post(live::ticket));
    // The competition's writes: the venue arbiter's token before the body.
    let rounds = Router::new()
        .route("/api/rounds", get(rounds::list).post(rounds::set_up))
        .route("/api/rounds/{n}/start", post(rounds::start))
        .route(
            "/api/rounds/{n}/tables/{id}/result",
            post(rounds::correct_result),
        )
        .layer(axum::extract::DefaultBodyLimit::max(self::bodies::TRF));
    Router::new()
        .route("/", get(pages::index))
        .route("/table/{id}/player", get(pages::player_page))
        .route("/table/{id}/assistant", get(pages::assistant_page))
        .route("/table/{id}/opponent", get(pages::opponent_page))
        .route("/arbiter", get(pages::arbiter_overview))
        .route("/arbiter/{id}", get(pages::arbiter_table))
        .route("/static/{file}", get(pages::static_file))
        .route("/api/rounds/{n}/pgn", get(rounds::round_pgn))
        .route("/api/trf", get(rounds::trf))
        .route("/api/players/me", get(players::me))
        .route(
            "/api/players/me/settings",
            get(players::my_settings).put(players::put_my_settings),
        )
        .route("/api/standings", get(players::standings))
        .route("/api/teams/me", get(teams::me))
        .route("/api/teams/{n}/lineup", put(teams::put_lineup))
        .route("/api/lineups", get(teams::lineups))
        .route("/c/{code}", get(teams::page))
        .route("/c/{code}/lineup", post(teams::post_lineup))
        // As a braille reader types the card's link: BRF has no case.
        .route("/C/{code}", get(teams::page))
        .route("/api/standings.brf", get(players::standings_brf))
        .route("/standings", get(players::standings_page))
        .route("/p/{code}", get(players::short_link))
        // As a braille reader types the card's link: BRF has no case.
        .route("/P/{code}", get(players::short_link))
        .route("/api/tables", get(api::list_tables))
        .route("/api/pgn", get(api::all_pgn))
        .route("/api/tables/{id}", get(api::one_table))
        .route("/api/tables/{id}/pgn", get(api::table_pgn))
        .route("/api/tables/{id}/brf", get(braille::table_brf))
        .route("/api/tables/{id}/events", get(live::events))
        .merge(writes)
        .merge(rounds)
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .with_state(state)
}

/// The table `id` names (a path's, checked as it was read: `TablePath`):
/// 404 if no such table.
pub(super) fn table<'a>(state: &'a AppState, id: &TableId) -> ApiResult<&'a TableHandle> {
    state
        .tables
        .get(id)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no table `{id}`")))
}
