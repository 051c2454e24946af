//! Work that blocks a thread — SQLite reads of earlier games, replaying
//! them, liblouis — runs here, never on the async workers. On a 2-core
//! hall computer the runtime has two workers: one request waiting on the
//! disk or on liblouis's lock there would hold up every table's moves and
//! flag falls behind it.
//!
//! Bounded: at most [`AT_ONCE`] such jobs run at a time, on tokio's
//! blocking threads; the others wait their turn without a thread (on a
//! semaphore). The waiting line is bounded by the connection limit, since
//! each job is a request's. A job that panics is an error for its request,
//! not a lost thread.

use tokio::sync::Semaphore;

/// Blocking jobs running at once: the cores of the machine we ship for.
/// SQLite's reader connection and liblouis each take one at a time anyway.
pub const AT_ONCE: usize = 2;

static PERMITS: Semaphore = Semaphore::const_new(AT_ONCE);

/// A blocking job did not finish: it panicked (a bug, logged) or the
/// runtime is shutting down.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the server could not finish this request's work: {0}")]
pub struct Unfinished(String);

/// Runs `job` on a blocking thread once a permit is free, and waits for it.
pub async fn run<T, F>(job: F) -> Result<T, Unfinished>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let _permit = PERMITS
        .acquire()
        .await
        .map_err(|_| Unfinished("shutting down".into()))?;
    tokio::task::spawn_blocking(job).await.map_err(|e| {
        tracing::error!("a blocking job failed: {e}");
        Unfinished(e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_at_once_jobs_run_together() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let jobs = (0..16).map(|_| {
            let (running, most) = (Arc::clone(&running), Arc::clone(&most));
            tokio::spawn(run(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                // Long enough that the others are waiting meanwhile.
                std::thread::sleep(std::time::Duration::from_millis(5));
                running.fetch_sub(1, Ordering::SeqCst);
            }))
        });
        for job in jobs.collect::<Vec<_>>() {
            job.await.unwrap().unwrap();
        }
        let most = most.load(Ordering::SeqCst);
        assert!((1..=AT_ONCE).contains(&most), "{most} jobs at once");
    }

    #[tokio::test]
    async fn a_job_that_panics_is_an_error_and_frees_its_permit() {
        let failed = run(|| -> u8 { panic!("a bug") }).await;
        assert!(failed.is_err());
        for _ in 0..=AT_ONCE {
            assert_eq!(run(|| 7).await.unwrap(), 7);
        }
    }
}
