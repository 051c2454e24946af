//! `GET /api/tables/{id}/brf`: the table's game as a braille record, from
//! the same PGN as `/pgn`, written by `braille::record`.
//!
//! Query: `format=brf` (the default: ASCII braille, `text/plain` with an
//! attachment name ending `.brf`) or `format=unicode` (Unicode braille);
//! `clock=1` for the clock time after every move; `lang=en|de|es|fr|nl|pt|pl|cs`
//! for the words, by default the table's own language (its voice pack's:
//! the language its players hear).

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::AppState;
use crate::service::api_types::BrfQuery;
use tactus_braille::record::{Options, RecordError, render};
use tactus_rules::language::Language;
use tactus_rules::pgn::read_pgn;

/// The one bounded error body (a `lang` of 60,000 characters is quoted
/// cut, not whole).
fn refuse(status: StatusCode, message: String) -> Response {
    super::error_response(status, &message)
}

pub async fn table_brf(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<BrfQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let table = match super::table(&state, &id) {
        Ok(table) => table,
        Err(e) => return e.into_response(),
    };
    let Ok(Query(q)) = query else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "query: format=brf|unicode, clock=0|1, lang=en|de|es|fr|nl|pt|pl|cs".into(),
        );
    };
    let unicode = match q.format.as_deref() {
        None | Some("brf") => false,
        Some("unicode") => true,
        Some(other) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("format `{other}`: brf or unicode"),
            );
        }
    };
    let clock = match q.clock.as_deref() {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(other) => return refuse(StatusCode::BAD_REQUEST, format!("clock `{other}`: 0 or 1")),
    };
    let lang = match q.lang {
        // The codes exactly as written (`EN` is refused, as it always was).
        Some(lang) if let Some(l) = Language::ALL.into_iter().find(|l| l.code() == lang) => l,
        Some(lang) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("lang `{lang}`: en, de, es, fr, nl, pt, pl or cs"),
            );
        }
        // The table's own language, that of its voice pack.
        None => match table.view().await {
            Ok(v) => Language::from_tag(&v.voice_lang).unwrap_or_default(),
            Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        },
    };
    let pgn = match table.pgn().await {
        Ok(p) => p,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let doc = read_pgn(&pgn)
        .map_err(RecordError::from)
        .and_then(|record| render(&record, &Options { lang, clock }));
    match doc {
        Ok(doc) if unicode => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("inline; filename=\"table-{id}.txt\""),
                ),
            ],
            doc.unicode(),
        )
            .into_response(),
        Ok(doc) => (
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=us-ascii".to_owned(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"table-{id}.brf\""),
                ),
            ],
            doc.brf(),
        )
            .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
