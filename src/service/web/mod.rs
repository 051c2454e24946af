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
pub mod routes;
pub mod streams;
mod table_path;
mod teams;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::middleware;
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
        .merge(clips::routes(voices.0, voices.1))
        .merge(cards::routes(cards));
    guarded(routes, state).layer(middleware::map_response(json_errors))
}

/// The pages and the API of the tables, the competition and the players
/// (without the guards: [`app`] is the whole edge): each module's routes,
/// assembled in one place ([`routes::assemble`]).
pub fn router(state: AppState) -> Router {
    routes::assemble([
        pages::routes(),
        api::routes(),
        live::routes(),
        braille::routes(),
        rounds::routes(),
        players::routes(),
        teams::routes(),
        hall::routes(),
    ])
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
