//! How the router is made: each module of the web edge lists its own
//! routes (a path and what answers it, [`Route`]), and [`assemble`] is the
//! one place they become a router. The access table
//! (`access_table::ROUTES`) names every one of them: a test reads each
//! module's list and finds its route there.

use axum::Router;
use axum::routing::MethodRouter;

/// A route: its path (axum's syntax, `{id}`) and its methods' handlers.
pub type Route<S> = (&'static str, MethodRouter<S>);

/// The router of `lists` (each module's routes, in order), for handlers
/// over state `S`.
pub fn assemble<S: Clone + Send + Sync + 'static>(
    lists: impl IntoIterator<Item = Vec<Route<S>>>,
) -> Router<S> {
    lists
        .into_iter()
        .flatten()
        .fold(Router::new(), |router, (path, method)| {
            router.route(path, method)
        })
}
