//! Error answers: a status and a sentence a person understands, as
//! `{"error": "…"}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::table::actor::TableError;

/// An error answer: a status and a sentence a person understands.
#[derive(Debug)]
pub struct ApiError(pub(super) StatusCode, pub(super) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        let status = match e {
            TableError::Forbidden(_) => StatusCode::FORBIDDEN,
            TableError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
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
