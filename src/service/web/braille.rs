//! `GET /api/tables/{id}/brf`: the table's game as a braille record, from
//! the same PGN as `/pgn`, written by `braille::record`.
//!
//! Query: `format=brf` (the default: ASCII braille, `text/plain` with an
//! attachment name ending `.brf`) or `format=unicode` (Unicode braille);
//! `clock=1` for the clock time after every move; `lang=en|de|es|fr|nl|pt|pl|cs`
//! for the words, by default the table's own language (its voice pack's:
//! the language its players hear).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::TablePath;
use super::api_types::BrfQuery;
use crate::table::id::TableId;
use tactus_braille::record::{Options, RecordError, render};
use tactus_rules::language::Language;
use tactus_rules::pgn::read_pgn;

use super::routes::Route;
use axum::routing::get;
/// A table's game record in braille.
pub(super) fn routes() -> Vec<Route<AppState>> {
    vec![("/api/tables/{id}/brf", get(table_brf))]
}

/// The braille records made, one per table and way of asking (language,
/// format, clock), each kept with the PGN it was made from: while a
/// table's game does not change (the same shared PGN), a crowd asking for
/// its record costs one rendering, not one each. Bounded by the venue:
/// at most tables × 8 languages × 2 formats × 2 clock settings entries,
/// each replaced, never added to, when its game moves on.
#[derive(Clone, Default)]
pub struct RecordCache(Arc<Mutex<HashMap<RecordKey, Made>>>);

/// The table, the language, Unicode (or BRF), the clock after each move.
type RecordKey = (String, Language, bool, bool);

/// The PGN a record was made from, and the record.
type Made = (Arc<str>, Arc<str>);

impl RecordCache {
    fn get(&self, key: &RecordKey, pgn: &Arc<str>) -> Option<Arc<str>> {
        let cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (made_from, body) = cache.get(key)?;
        Arc::ptr_eq(made_from, pgn).then(|| Arc::clone(body))
    }

    fn put(&self, key: RecordKey, pgn: Arc<str>, body: Arc<str>) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, (pgn, body));
    }
}

/// The one bounded error body (a `lang` of 60,000 characters is quoted
/// cut, not whole).
fn refuse(status: StatusCode, message: String) -> Response {
    super::error_response(status, &message)
}

pub async fn table_brf(
    State(state): State<AppState>,
    TablePath(id): TablePath,
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
    let asked = match Asked::of(q) {
        Ok(asked) => asked,
        Err(BadQuery(why)) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    let lang = match asked.lang {
        Some(lang) => lang,
        // The table's own language, that of its voice pack.
        None => match table.view().await {
            Ok(v) => Language::from_tag(&v.voice_lang).unwrap_or_default(),
            Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        },
    };
    let pgn = match table.pgn_shared().await {
        Ok(p) => p,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let key = (table.id.to_string(), lang, asked.unicode, asked.clock);
    match record(&state.braille, key, pgn).await {
        Ok(body) => respond(&id, asked.unicode, body.to_string()),
        Err(refused) => refused,
    }
}

/// A query value out of its range: what it may be.
struct BadQuery(String);

/// What the query asks for, each value checked.
struct Asked {
    /// Unicode braille (or BRF).
    unicode: bool,
    /// The clock time after every move.
    clock: bool,
    /// The words' language, where the query names one.
    lang: Option<Language>,
}

impl Asked {
    fn of(q: BrfQuery) -> Result<Asked, BadQuery> {
        let unicode = match q.format.as_deref() {
            None | Some("brf") => false,
            Some("unicode") => true,
            Some(other) => {
                return Err(BadQuery(format!("format `{other}`: brf or unicode")));
            }
        };
        let clock = match q.clock.as_deref() {
            None | Some("0") | Some("false") => false,
            Some("1") | Some("true") => true,
            Some(other) => {
                return Err(BadQuery(format!("clock `{other}`: 0 or 1")));
            }
        };
        let lang = match q.lang {
            // The codes exactly as written (`EN` is refused, as it always was).
            Some(lang) if let Some(l) = Language::ALL.into_iter().find(|l| l.code() == lang) => {
                Some(l)
            }
            Some(lang) => {
                return Err(BadQuery(format!(
                    "lang `{lang}`: en, de, es, fr, nl, pt, pl or cs"
                )));
            }
            None => None,
        };
        Ok(Asked {
            unicode,
            clock,
            lang,
        })
    }
}

/// The record `key` asks for of `pgn`: the one made already while the
/// game has not changed, or made now (and kept).
async fn record(cache: &RecordCache, key: RecordKey, pgn: Arc<str>) -> Result<Arc<str>, Response> {
    if let Some(body) = cache.get(&key, &pgn) {
        return Ok(body);
    }
    let (_, lang, unicode, clock) = key;
    // liblouis and the record's layout: off the async workers.
    let from = Arc::clone(&pgn);
    let made = crate::service::blocking::run(move || {
        read_pgn(&from)
            .map_err(RecordError::from)
            .and_then(|record| render(&record, &Options { lang, clock }))
            .map(|doc| if unicode { doc.unicode() } else { doc.brf() })
    })
    .await;
    match made {
        Ok(Ok(body)) => {
            let body: Arc<str> = Arc::from(body);
            cache.put(key, pgn, Arc::clone(&body));
            Ok(body)
        }
        Ok(Err(e)) => Err(refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
        Err(e) => Err(refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

/// The record as the reader asked for it: Unicode braille shown in the
/// browser, BRF downloaded as a file for an embosser or a braille display.
fn respond(id: &TableId, unicode: bool, body: String) -> Response {
    if unicode {
        (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("inline; filename=\"table-{id}.txt\""),
                ),
            ],
            body,
        )
            .into_response()
    } else {
        (
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
            body,
        )
            .into_response()
    }
}
