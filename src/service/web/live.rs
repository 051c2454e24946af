//! The live stream (SSE) of one table: its state, then every announcement
//! and every change. A page coming back after a lost connection says the
//! number of the last announcement it had (`?since=`, or the
//! `Last-Event-ID` a browser sends by itself) and is sent, after the
//! state, what it missed (`missed`), so its player hears it once, in order.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, StreamExt};
use serde::Deserialize;
use tokio_stream::wrappers::BroadcastStream;

use crate::table::view::LiveEvent;

use super::TablePath;
use super::error::{ApiError, ApiResult};
use super::{AppState, table};

use super::routes::Route;
use axum::routing::{get, post};
/// A table's live stream and the ticket it is opened with.
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/api/tables/{id}/events", get(events)),
        ("/api/tables/{id}/stream-ticket", post(ticket)),
    ]
}

/// `?since=N`: the last announcement number the page had; `?ticket=`:
/// a ticket its token got (a stream that is not capped).
#[derive(Deserialize)]
pub(super) struct Resume {
    since: Option<String>,
    ticket: Option<String>,
}

/// `POST /api/tables/{id}/stream-ticket` (any role's token at the table):
/// a single-use ticket, valid a minute, for one live stream of the table
/// that no cap on token-less streams holds back.
pub(super) async fn ticket(
    State(state): State<AppState>,
    TablePath(id): TablePath,
) -> ApiResult<axum::Json<serde_json::Value>> {
    table(&state, &id)?;
    let ticket = state.streams.ticket(&id).map_err(|e| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("no random source for a ticket: {e}"),
        )
    })?;
    Ok(axum::Json(serde_json::json!({ "ticket": ticket })))
}

/// The number a returning page had: `?since=` first (a page that made a
/// new stream), else `Last-Event-ID`; a value that is no number is refused.
fn resumed_from(q: &Resume, headers: &HeaderMap) -> ApiResult<Option<u64>> {
    let text = match (&q.since, headers.get("last-event-id")) {
        (Some(s), _) => s.clone(),
        (None, Some(v)) => v
            .to_str()
            .map_err(|_| bad("Last-Event-ID is not a number"))?
            .to_owned(),
        (None, None) => return Ok(None),
    };
    text.trim()
        .parse::<u64>()
        .map(Some)
        .map_err(|_| bad("since: not an announcement number"))
}

fn bad(why: &str) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, why.to_owned())
}

/// The live stream: the table's state first, then (for a returning page)
/// what it missed, then every announcement and every change. A client that
/// cannot keep up is dropped (its stream ends; a browser reconnects and
/// gets the state first), never buffered for.
pub(super) async fn events(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    Query(q): Query<Resume>,
    peer: Option<axum::Extension<super::listener::Peer>>,
    mark: Option<axum::Extension<super::admission::Mark>>,
    headers: HeaderMap,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let since = resumed_from(&q, &headers)?;
    let t = table(&state, &id)?.clone();
    // In process (no listener) the client is this computer.
    let client = peer.map_or(std::net::IpAddr::from([127, 0, 0, 1]), |p| p.ip);
    let permit = match admit(&state, client, &id, q.ticket.as_deref(), mark) {
        Ok(p) => p,
        Err(full) => {
            let mut r = ApiError(StatusCode::SERVICE_UNAVAILABLE, full.to_string()).into_response();
            r.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("5"),
            );
            return Ok(r);
        }
    };
    // A new page starts at the newest number; read before subscribing, and
    // what came between is sent after the state like any announcement.
    let at = t.newest_announced();
    // Subscribed before the missed ones are read (in `head`): nothing
    // falls between; what is in both is sent once (by number).
    let rx = t.subscribe();
    let (opening, newest_missed) = head(&t, since, at).await?;
    drop(t);
    let rest = BroadcastStream::new(rx)
        .take_while(|item| std::future::ready(item.is_ok()))
        // The permit lives as long as the stream: its count is given back
        // when the client goes.
        .map(move |item| {
            let _held = &permit;
            item
        })
        .filter_map(move |item| async move {
            match item {
                Ok(LiveEvent::Announcement(a)) if a.seq <= newest_missed => None,
                Ok(LiveEvent::Announcement(a)) => Some(Ok(announcement_event(&a))),
                Ok(LiveEvent::State(v)) => Some(Ok(state_event(&v))),
                Err(_) => None,
            }
        });
    Ok(Sse::new(stream::iter(opening).chain(rest))
        .keep_alive(
            // An event, not a comment: a page sees it, and one that has
            // heard nothing for much longer knows its connection is gone.
            KeepAlive::new()
                .interval(Duration::from_secs(15))
                .event(Event::default().event("alive").data("{}")),
        )
        .into_response())
}

/// A place for the stream under the caps, unless it has a ticket: a flood
/// of streams without one is refused here, before it holds a connection
/// for hours.
fn admit(
    state: &AppState,
    client: std::net::IpAddr,
    id: &crate::table::id::TableId,
    ticket: Option<&str>,
    mark: Option<axum::Extension<super::admission::Mark>>,
) -> Result<super::streams::Permit, super::streams::Full> {
    let permit = state.streams.admit(client, id, ticket)?;
    // A ticket's stream is a token holder's page: its connection is never
    // closed to make room for a newcomer (`admission.rs`).
    if permit.ticketed()
        && let Some(axum::Extension(mark)) = &mark
    {
        mark.known();
    }
    Ok(permit)
}

/// What the stream opens with: the table's state, then for a returning
/// page (`since`) what it missed, for a new page the newest number (`at`,
/// read before subscribing) and what came since; and the newest number
/// sent, after which the live announcements follow.
async fn head(
    t: &crate::table::handle::TableHandle,
    since: Option<u64>,
    at: u64,
) -> ApiResult<(Vec<Result<Event, Infallible>>, u64)> {
    let first = t.view().await?;
    let missed = t.announced_since(since.unwrap_or(at));
    let newest_missed = missed.announcements.last().map_or(0, |a| a.seq);
    let mut head: Vec<Result<Event, Infallible>> = vec![Ok(state_event(&first))];
    if since.is_some() {
        head.push(Ok(Event::default()
            .event("missed")
            .data(serde_json::to_string(&missed).unwrap_or_default())));
    } else {
        head.push(Ok(Event::default()
            .event("at")
            .data(format!("{{\"seq\":{at}}}"))));
        head.extend(
            missed
                .announcements
                .iter()
                .map(|a| Ok(announcement_event(a))),
        );
    }
    Ok((head, newest_missed))
}

fn announcement_event(a: &crate::table::view::Announcement) -> Event {
    Event::default()
        .event("announcement")
        .id(a.seq.to_string())
        .data(serde_json::to_string(a).unwrap_or_default())
}

pub(super) fn state_event(view: &crate::table::view::TableView) -> Event {
    Event::default()
        .event("state")
        .data(serde_json::to_string(view).unwrap_or_default())
}
