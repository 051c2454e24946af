//! The table a route's `{id}` names, checked as the path is read: a
//! handler receives a [`TableId`], never the text.

use axum::extract::{FromRequestParts, Path};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::error::ApiError;
use crate::table::id::{BadTableId, TableId};

/// `Path<TableId>` with the server's own answer: a text that cannot be a
/// table id is a 400 saying what an id is (checked before anything is
/// looked up), as JSON like every error of the API.
#[derive(Debug, Clone)]
pub(super) struct TablePath(pub(super) TableId);

impl<S: Send + Sync> FromRequestParts<S> for TablePath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<TablePath, ApiError> {
        let Path(text) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError(StatusCode::BAD_REQUEST, e.body_text()))?;
        text.parse()
            .map(TablePath)
            .map_err(|e: BadTableId| ApiError(StatusCode::BAD_REQUEST, e.to_string()))
    }
}
