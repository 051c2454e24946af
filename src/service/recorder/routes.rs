//! The recorder's page and API, an application of its own: the page, its
//! script and style, the pack's state, a clip played back, a clip sent.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

use crate::service::i18n;

use super::{MAX_CLIP_BYTES, Recording, Shared};
const PAGE_HTML: &str = include_str!("../pages/recorder.html");
const PAGE_JS: &str = include_str!("../pages/recorder.js");
const STYLE: &str = include_str!("../pages/style.css");
/// The recorder's routes over `recording`.
pub fn router(recording: Recording) -> Router {
    crate::service::web::routes::assemble([vec![
        ("/", get(page)),
        ("/static/recorder.js", get(script)),
        ("/static/style.css", get(style)),
        ("/api/record", get(pack_state)),
        ("/api/record/clips/{key}", get(clip).put(put_clip)),
    ]])
    .layer(DefaultBodyLimit::max(MAX_CLIP_BYTES))
    // The same policy as the venue's pages: only this server's scripts.
    .layer(axum::middleware::map_response(|mut r: Response| async {
        crate::service::web::headers::secure(r.headers_mut());
        r
    }))
    .with_state(Arc::new(recording))
}

#[derive(serde::Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

async fn page(Query(q): Query<LangQuery>, headers: HeaderMap) -> Html<String> {
    let lang = i18n::negotiate(
        q.lang.as_deref(),
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    Html(i18n::render(PAGE_HTML, lang, &[]))
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        PAGE_JS,
    )
        .into_response()
}

async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

async fn pack_state(State(r): State<Shared>) -> Response {
    axum::Json(r.state()).into_response()
}

async fn clip(State(r): State<Shared>, UrlPath(key): UrlPath<String>) -> Response {
    let Some(path) = r.clip_path(&key) else {
        return (StatusCode::NOT_FOUND, format!("no token `{key}`")).into_response();
    };
    match std::fs::read(&path) {
        Ok(bytes) => ([(header::CONTENT_TYPE, "audio/wav")], bytes).into_response(),
        Err(_) => (
            StatusCode::NOT_FOUND,
            format!("`{key}` is not recorded yet"),
        )
            .into_response(),
    }
}

async fn put_clip(
    State(r): State<Shared>,
    UrlPath(key): UrlPath<String>,
    body: axum::body::Bytes,
) -> Response {
    let stored = tokio::task::spawn_blocking(move || r.store(&key, &body)).await;
    match stored {
        Ok(Ok(s)) => axum::Json(s).into_response(),
        Ok(Err((status, message))) => {
            (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// Serves the recorder on `listen` until Ctrl-C; prints where.
pub async fn serve(recording: Recording, listen: SocketAddr) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(listen).await?;
    let addr = listener.local_addr()?;
    println!(
        "recording {} ({} tokens): open http://{addr}/ in a browser with a microphone",
        recording.dir.display(),
        recording.order.len()
    );
    axum::serve(listener, router(recording))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
