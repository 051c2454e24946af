//! How large a request's body may be, by route, in one place: a body over
//! its limit is refused (413) from its `Content-Length` before a byte of it
//! is read, and the connection closes with the answer. A body sent without
//! a length (chunked) is read up to the limit and no further (axum's
//! `DefaultBodyLimit`, set from the same table).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// A round's pairing file (TRF): the largest body the server takes, as
/// `docs/competition.md` promises.
pub const TRF: usize = 4 * 1024 * 1024;
/// A player's settings (`PUT /api/players/me/settings`).
pub const SETTINGS: usize = 4 * 1024;
/// Every other body: a move, a clock request, a ruling with both
/// scoresheets (a 300-move game's two sheets are under 8 KiB).
pub const OTHER: usize = 64 * 1024;

/// The largest body `method` on `path` may carry.
pub fn limit(method: &Method, path: &str) -> usize {
    match (method, path) {
        (&Method::POST, "/api/rounds") => TRF,
        (&Method::PUT, "/api/players/me/settings") => SETTINGS,
        _ => OTHER,
    }
}

/// Refuses a request whose announced body is over its route's limit, before
/// the body is read. It runs after the access table's gate: a stranger is
/// told 401 or 403 first.
pub(super) async fn announced(request: Request, next: Next) -> Response {
    let max = limit(request.method(), request.uri().path());
    refuse_over(max, request, next).await
}

async fn refuse_over(max: usize, request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = announced
        && n > max as u64
    {
        return ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is {n} bytes; this route takes at most {max}"),
        )
        .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trf_and_the_settings_have_their_own_limits() {
        assert_eq!(limit(&Method::POST, "/api/rounds"), 4 << 20);
        assert_eq!(limit(&Method::PUT, "/api/players/me/settings"), 4096);
        assert_eq!(limit(&Method::POST, "/api/tables/1/move"), OTHER);
        assert_eq!(limit(&Method::GET, "/api/rounds"), OTHER);
    }
}
