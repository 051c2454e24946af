//! The hall check on the arbiter's overview page (`pages/hall-check.js`):
//! `GET /api/check` is every table's parts as they report now (venue
//! arbiter token), `GET /api/tables/{id}/check` one table's again (its
//! arbiter's token or the venue arbiter's). The lines are those of
//! `tactus check` for a running server (`service::startup::check::live`).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use super::AppState;
use super::TablePath;
use super::error::ApiResult;
use super::routes::Route;
use crate::service::startup::check::{Line, live};

const HALL_CHECK_JS: &str = include_str!("../pages/hall-check.js");

/// The check's routes, merged into the server's router.
pub fn routes() -> Vec<Route<AppState>> {
    vec![
        ("/api/check", get(all)),
        ("/api/tables/{id}/check", get(one)),
        ("/static/hall-check.js", get(script)),
    ]
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

/// The whole hall (the venue arbiter's: the access table's gate checked).
async fn all(State(state): State<AppState>) -> ApiResult<Response> {
    let mut lines = Vec::new();
    for table in state.tables.values() {
        lines.extend(live(&table.view().await?));
    }
    Ok(answer(lines))
}

/// One table (its arbiter's or the venue arbiter's: the gate checked).
async fn one(State(state): State<AppState>, TablePath(id): TablePath) -> ApiResult<Response> {
    let table = super::table(&state, &id)?;
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
