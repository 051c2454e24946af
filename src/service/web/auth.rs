//! The tokens a request carries, read: its bearer token, the role it grants
//! at a table, a listed player's code, the venue arbiter's. Which route
//! needs which is the access table's (`access_table.rs`); the guards every
//! route has (the venue arbiter's token never over plain HTTP from the
//! hall; a crowded server serves known tokens first) are here.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::service::security::access::Tokens;
use crate::table::actions::PersonRole;
use crate::table::id::TableId;

use super::error::{ApiError, ApiResult};
use super::{AppState, table};

/// The venue arbiter's token opens every table and every player's data:
/// over plain HTTP it is accepted only from this computer (the server's
/// own screen), never across the hall's Wi-Fi where anyone can read it.
/// A request without a peer (in-process, tests) is this computer's.
pub(super) async fn venue_over_plain(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request.extensions().get::<super::listener::Peer>().copied();
    let exposed = peer.is_some_and(|p| !p.secure && !is_this_computer(p.ip));
    if exposed
        && let Ok(token) = bearer(request.headers())
        && state.tokens.is_venue_arbiter(token)
    {
        return ApiError(
            StatusCode::FORBIDDEN,
            "the venue arbiter's token crosses the network in clear over plain HTTP: it is \
             accepted only on this computer. Serve HTTPS (tactus tls self-signed; \
             docs/https.md) to use it from another device"
                .into(),
        )
        .into_response();
    }
    next.run(request).await
}

/// A request with a token this venue knows raises its connection to
/// *known* (never closed to make room for a newcomer: `admission.rs`). A
/// connection that came when the server was nearly full serves only such
/// requests: the last slots are the players', assistants' and arbiters',
/// never a stranger's.
pub(super) async fn crowded_gate(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let known = bearer(request.headers()).is_ok_and(|t| state.tokens.knows(t));
    if known && let Some(mark) = request.extensions().get::<super::admission::Mark>() {
        mark.known();
    }
    let crowded = request
        .extensions()
        .get::<super::listener::Peer>()
        .is_some_and(|p| p.crowded);
    if crowded && !known {
        let mut r = ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is nearly full: its last connections are for requests with a token; \
             try again shortly"
                .into(),
        )
        .into_response();
        r.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from_static("2"),
        );
        return r;
    }
    next.run(request).await
}

/// A loopback address, IPv4 or IPv6 (an IPv4 one mapped into IPv6 too).
pub(super) fn is_this_computer(ip: std::net::IpAddr) -> bool {
    match ip {
        std::net::IpAddr::V4(v4) => v4.is_loopback(),
        std::net::IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// What a request's token grants at a table: a role, in one game only
/// (the second blind player's) or in every game (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Granted {
    pub role: PersonRole,
    pub game: Option<u32>,
}

/// The role the request's bearer token grants at table `id` (404 if there
/// is no such table). The second blind player's token is checked against
/// the table's current game: a token of an earlier game (an earlier
/// round's opponent) is refused like any wrong one, and what it is granted
/// holds in that game only (`TableHandle::act_in`).
pub(super) async fn role(
    state: &AppState,
    id: &TableId,
    headers: &HeaderMap,
) -> ApiResult<Granted> {
    let handle = table(state, id)?;
    let token = bearer(headers)?;
    if let Some(role) = state.tokens.role_of(id, token) {
        return Ok(Granted { role, game: None });
    }
    if state.tokens.has_second_blind(id) {
        let game = handle.view().await?.game;
        if state.tokens.opponent_at(id, game, token) {
            return Ok(Granted {
                role: PersonRole::Opponent,
                game: Some(game),
            });
        }
    }
    // A listed player's own token: their own side of their own game in
    // the latest round, in that game only.
    if let Some(rank) = listed_player(state, token)? {
        // The table's current game is theirs: it may be an earlier round's
        // still being played while the next round is set up elsewhere.
        let here = handle.view().await?;
        if let Some(colour) = here.ranks.find(|r| *r == Some(rank)) {
            return Ok(Granted {
                role: if colour == here.blind {
                    PersonRole::Player
                } else {
                    PersonRole::Opponent
                },
                game: Some(here.game),
            });
        }
        return match state.competition.seat_of(rank).await? {
            Ok(seat) if seat.table == *id => Ok(Granted {
                role: if seat.colour == seat.blind {
                    PersonRole::Player
                } else {
                    PersonRole::Opponent
                },
                game: Some(seat.game),
            }),
            Ok(seat) => Err(ApiError(
                StatusCode::FORBIDDEN,
                format!(
                    "this player's game in round {} is at table `{}`, not at table `{id}`",
                    seat.round, seat.table
                ),
            )),
            Err(none) => Err(ApiError(
                StatusCode::FORBIDDEN,
                format!("this player has no game at table `{id}`: {}", none.why),
            )),
        };
    }
    Err(ApiError(
        StatusCode::FORBIDDEN,
        format!("this token is not valid for table `{id}`"),
    ))
}

/// The listed player whose own code `token` is, if any; 403 naming them
/// for the code of a player no longer listed.
pub(super) fn listed_player(state: &AppState, token: &str) -> ApiResult<Option<u16>> {
    if let Some(rank) = state.tokens.player_of(token) {
        state.competition.listed(rank)?;
        return Ok(Some(rank));
    }
    if let Some((rank, name)) = state.tokens.departed(token) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "{name}: [[player]] start_rank = {rank} is not listed in the venue file: a \
                 token of theirs is no longer valid"
            ),
        ));
    }
    Ok(None)
}

/// The request's bearer token: 401, saying how to send one, without it.
pub(super) fn bearer(headers: &HeaderMap) -> ApiResult<&str> {
    let value = headers.get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "this needs a token: Authorization: Bearer <token>".into(),
        )
    })?;
    value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .ok_or_else(|| {
            ApiError(
                StatusCode::UNAUTHORIZED,
                "the Authorization header must be `Bearer <token>`".into(),
            )
        })
}

/// 401 without a token, 403 unless it is the venue arbiter's; `what`
/// names what needs it ("the cards", "the hall check").
pub(super) fn venue_arbiter(tokens: &Tokens, headers: &HeaderMap, what: &str) -> ApiResult<()> {
    if tokens.is_venue_arbiter(bearer(headers)?) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("{what} need the venue arbiter's token"),
        ))
    }
}
