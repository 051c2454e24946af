//! Error answers: a status and a sentence a person understands, as
//! `{"error": "…"}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::api_types::ErrorBody;
use crate::table::error::TableError;

/// An error answer: a status and a sentence a person understands.
#[derive(Debug)]
pub struct ApiError(pub(super) StatusCode, pub(super) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: bounded(&self.1),
        };
        (self.0, Json(body)).into_response()
    }
}

/// Every error answer of the server, whatever route gives it: `status`
/// with the one bounded `{"error": …}` body (quotes cut to a hundred
/// characters, the whole to a few hundred).
pub fn error_response(status: StatusCode, message: &str) -> Response {
    ApiError(status, message.to_owned()).into_response()
}

/// Every error answer that is not yet `{"error": …}` (axum's own: a 405,
/// a query or path it cannot read, a body over the limit) made one: its
/// text, cut as every message is, or the status's words. Headers such as
/// `Allow` are kept.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // axum's own texts are a line; more is cut, not read.
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase(),
        t => t.to_owned(),
    };
    let mut answer = error_response(status, &message);
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    for (name, value) in &parts.headers {
        answer.headers_mut().insert(name.clone(), value.clone());
    }
    answer
}

/// The most of a request's input an error answer quotes, in characters.
pub const QUOTE_MAX: usize = 100;

/// The most an error answer says in all: its own words and one quote.
const MESSAGE_MAX: usize = 300;

/// An error message with every quoted span (between `` ` `` or `"`)
/// cut to [`QUOTE_MAX`] characters, and the whole to [`MESSAGE_MAX`]: a
/// 2 MB body that is no move gets a sentence back, not itself.
fn bounded(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<(char, usize)> = None;
    for c in message.chars() {
        match quote {
            Some((q, _)) if c == q => {
                quote = None;
                out.push(c);
            }
            Some((q, n)) => {
                if n < QUOTE_MAX {
                    out.push(c);
                } else if n == QUOTE_MAX {
                    out.push('…');
                }
                quote = Some((q, n + 1));
            }
            None => {
                if matches!(c, '`' | '"') {
                    quote = Some((c, 0));
                }
                out.push(c);
            }
        }
    }
    if out.chars().count() > MESSAGE_MAX {
        out = out.chars().take(MESSAGE_MAX).collect();
        out.push('…');
    }
    out
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        let status = match e {
            TableError::Forbidden(_) => StatusCode::FORBIDDEN,
            TableError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            TableError::UnderWay { .. } => StatusCode::CONFLICT,
            TableError::Journal(_) | TableError::Stopped => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        // A body over the limit is refused as such; JSON that reads but
        // does not fit the body's type (a field missing, unknown, or a
        // value that is no square, piece, score, side, round or table) is
        // 422 naming the field; anything else (not JSON) 400.
        let status = match &e {
            JsonRejection::JsonDataError(_) => StatusCode::UNPROCESSABLE_ENTITY,
            _ if e.status() == StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, format!("malformed request: {}", e.body_text()))
    }
}

pub(super) type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_to_a_hundred_characters() {
        let long = "x".repeat(2 << 20);
        let said = bounded(&format!("`{long}` is not a move"));
        assert_eq!(said, format!("`{}…` is not a move", "x".repeat(QUOTE_MAX)));
        assert_eq!(bounded("no table `7`"), "no table `7`");
        // Unquoted input is bounded too.
        assert!(bounded(&long).chars().count() <= MESSAGE_MAX + 1);
    }
}
