//! The live stream (SSE) of one table: its state, then every announcement
//! and every change.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use tokio_stream::wrappers::BroadcastStream;

use crate::table::view::LiveEvent;

use super::error::ApiResult;
use super::{AppState, table};

/// The live stream: the table's state first, then every announcement and
/// every change. A client that cannot keep up is dropped (its stream ends;
/// a browser reconnects and gets the state first), never buffered for.
pub(super) async fn events(
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

pub(super) fn state_event(view: &crate::table::view::TableView) -> Event {
    Event::default()
        .event("state")
        .data(serde_json::to_string(view).unwrap_or_default())
}
