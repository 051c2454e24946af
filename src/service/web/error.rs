//! Error answers: a status and a sentence a person understands, as
//! `{"error": "…"}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::service::api_types::ErrorBody;
use crate::table::actor::TableError;

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
        // A body over the limit is refused as such, not as malformed.
        let status = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
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
