//! Headers on every answer: a content security policy that allows only the
//! server's own scripts, styles and connections (the pages have no inline
//! script or style), no framing by other sites, no content sniffing, no
//! referrer.

use axum::http::{HeaderMap, HeaderValue, header};

/// The policy: everything from this server only, nothing inline, no plugins,
/// never inside a frame.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to an answer's headers.
pub fn secure(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // For browsers that predate frame-ancestors.
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}
