//! The hall check on the arbiter's overview page (`pages/hall-check.js`):
//! `GET /api/check` is every table's parts as they report now (venue
//! arbiter token), `GET /api/tables/{id}/check` one table's again (its
//! arbiter's token or the venue arbiter's). The lines are those of
//! `tactus check` for a running server (`service::check::live`).

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use super::AppState;
use super::TablePath;
use super::auth::{bearer, venue_arbiter};
use super::error::{ApiError, ApiResult};
use crate::service::check::{Line, live};
use crate::table::actions::PersonRole;

const HALL_CHECK_JS: &str = include_str!("../pages/hall-check.js");

/// The check's routes, merged into the server's router.
pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/check", get(all))
        .route("/api/tables/{id}/check", get(one))
        .route("/static/hall-check.js", get(script))
        .with_state(state)
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        HALL_CHECK_JS,
    )
        .into_response()
}

/// A check's answer: every line, and whether all passed.
#[derive(Serialize)]
struct Checked {
    ok: bool,
    lines: Vec<Line>,
}

async fn all(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    venue_arbiter(&state.tokens, &headers, "checks of the whole hall")?;
    let mut lines = Vec::new();
    for table in state.tables.values() {
        lines.extend(live(&table.view().await?));
    }
    Ok(answer(lines))
}

async fn one(
    State(state): State<AppState>,
    TablePath(id): TablePath,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let table = super::table(&state, &id)?;
    let token = bearer(&headers)?;
    if state.tokens.role_of(&id, token) != Some(PersonRole::Arbiter) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("checking table `{id}` needs its arbiter's token"),
        ));
    }
    Ok(answer(live(&table.view().await?)))
}

fn answer(lines: Vec<Line>) -> Response {
    let ok = lines.iter().all(|l| l.ok);
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(Checked { ok, lines }),
    )
        .into_response()
}
