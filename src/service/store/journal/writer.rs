//! The journal's writer thread and the handle tasks append through: one
//! thread owns the connection, takes every append queued while the last
//! commit was on its way to disk as one batch, checkpoints the WAL, and
//! tells the log (and the tables) while writes fail.

use super::*;

/// What the writer thread is asked, in the order it was asked.
enum Request {
    Append(NewEvent, oneshot::Sender<Result<i64, Arc<JournalError>>>),
    /// An imported document to keep (replacing one of the same name).
    Document {
        name: String,
        at_ms: i64,
        body: Vec<u8>,
        reply: oneshot::Sender<Result<(), Arc<JournalError>>>,
    },
    /// A table's clock is running at this instant (no reply needed).
    Alive(TableId, i64),
}

/// The writer thread: it blocks for the first event, then takes whatever
/// else queued while the previous commit was on its way to disk. When
/// writes have waited CHECKPOINT_EVERY, the WAL is copied into the main
/// file (see CHECKPOINT_EVERY).
struct Writer {
    journal: Journal,
    rx: mpsc::Receiver<Request>,
    /// When the first write since the last checkpoint was made.
    written_since: Option<Instant>,
    failures: FailureLog,
    /// The handles' view of the writer's last error (`None` while writes
    /// succeed).
    health: Arc<Mutex<Option<String>>>,
}

impl Writer {
    /// Writes batches until every handle is gone, then checkpoints what
    /// is left.
    fn run(mut self) {
        while let Some(batch) = self.next_batch() {
            self.write(batch);
        }
        if self.written_since.is_some() {
            checkpoint(&self.journal);
        }
    }

    /// The next batch: the first request waited for (a checkpoint made
    /// meanwhile when one is due), then up to MAX_BATCH queued; `None`
    /// once every handle is gone.
    fn next_batch(&mut self) -> Option<Vec<Request>> {
        let first = loop {
            let Some(at) = self.written_since else {
                break self.rx.recv().ok()?;
            };
            let left = CHECKPOINT_EVERY.saturating_sub(at.elapsed());
            match self.rx.recv_timeout(left) {
                Ok(r) => break r,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    checkpoint(&self.journal);
                    self.written_since = None;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match self.rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        Some(batch)
    }

    /// Writes a batch's events and alive marks in one commit (its
    /// documents each on their own, first) and answers every append.
    fn write(&mut self, batch: Vec<Request>) {
        let mut events = Vec::new();
        let mut replies = Vec::new();
        let mut alive = Vec::new();
        for request in batch {
            match request {
                Request::Append(event, reply) => {
                    events.push(event);
                    replies.push(reply);
                }
                Request::Alive(table, at_ms) => alive.push((table, at_ms)),
                Request::Document {
                    name,
                    at_ms,
                    body,
                    reply,
                } => {
                    // Rare (a round's pairings): written on its own,
                    // before the batch's events.
                    let _ = reply.send(
                        self.journal
                            .put_document(&name, at_ms, &body)
                            .map_err(Arc::new),
                    );
                }
            }
        }
        let written = self.journal.write(&events, &alive);
        let since = *self.written_since.get_or_insert_with(Instant::now);
        if since.elapsed() >= CHECKPOINT_EVERY {
            checkpoint(&self.journal);
            self.written_since = None;
        }
        match written {
            Ok(seqs) => {
                self.failures.written();
                self.set_failing(None);
                for (reply, seq) in replies.into_iter().zip(seqs) {
                    let _ = reply.send(Ok(seq));
                }
            }
            Err(e) => {
                self.failures.failed(&e);
                self.set_failing(Some(e.to_string()));
                let e = Arc::new(e);
                for reply in replies {
                    let _ = reply.send(Err(e.clone()));
                }
            }
        }
    }

    fn set_failing(&self, state: Option<String>) {
        *self.health.lock().unwrap_or_else(|e| e.into_inner()) = state;
    }
}

/// A cloneable handle to the writer thread, for async tasks.
#[derive(Clone)]
pub struct JournalHandle {
    tx: mpsc::Sender<Request>,
    /// The writer's last error while writes fail; `None` once one succeeds.
    failing: Arc<Mutex<Option<String>>>,
}

/// How often a journal that keeps failing is told in the log again (with
/// the count), after the first failure told at once.
pub const FAILURE_SUMMARY_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// The writer's failures as the log tells them: the first at once, then a
/// summary every [`FAILURE_SUMMARY_EVERY`], and the recovery.
#[derive(Default)]
struct FailureLog {
    /// Failed writes in this run of failures, and since the last line.
    failed: u64,
    untold: u64,
    told_at: Option<Instant>,
}

impl FailureLog {
    fn failed(&mut self, e: &JournalError) {
        self.failed += 1;
        match self.told_at {
            None => {
                tracing::error!(
                    "journal write failed: {e}; changes are not recorded until it works again"
                );
                self.told_at = Some(Instant::now());
            }
            Some(at) => {
                self.untold += 1;
                if at.elapsed() >= FAILURE_SUMMARY_EVERY {
                    tracing::error!(
                        "journal still failing: {} more failed writes in {:.0} s (latest: {e})",
                        self.untold,
                        at.elapsed().as_secs_f64()
                    );
                    self.untold = 0;
                    self.told_at = Some(Instant::now());
                }
            }
        }
    }

    fn written(&mut self) {
        if self.failed > 0 {
            tracing::warn!("journal writes again, after {} failed writes", self.failed);
        }
        *self = FailureLog::default();
    }
}

/// Most events one transaction takes: bounds the wait of the first one.
const MAX_BATCH: usize = 512;

/// How long a committed event may live in `journal.sqlite-wal` only: at
/// most this long after a write the writer copies the WAL into
/// `journal.sqlite` (a passive checkpoint), so a copy of the main file
/// alone is never more than about a second behind. (`tactus journal
/// backup` is never behind.)
pub const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

fn checkpoint(journal: &Journal) {
    if let Err(e) = journal.checkpoint() {
        tracing::warn!("journal checkpoint: {e}");
    }
}

impl JournalHandle {
    /// Starts the writer thread on an opened journal.
    pub fn spawn(journal: Journal) -> JournalHandle {
        let (tx, rx) = mpsc::channel::<Request>();
        let failing = Arc::new(Mutex::new(None));
        let writer = Writer {
            journal,
            rx,
            written_since: None,
            failures: FailureLog::default(),
            health: Arc::clone(&failing),
        };
        let spawned = thread::Builder::new()
            .name("journal".into())
            .spawn(move || writer.run());
        if let Err(e) = spawned {
            // Without a writer every append fails with `Stopped`: loud, not lost.
            tracing::error!("cannot start the journal writer: {e}");
        }
        JournalHandle { tx, failing }
    }

    /// The writer's last error while writes fail (the disk full, the file
    /// locked or read-only); `None` while they succeed.
    pub fn failing(&self) -> Option<String> {
        self.failing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Notes that `table`'s clock runs at `at_ms`, without waiting: a
    /// restart pauses the clock at the last such instant.
    pub fn alive(&self, table: &TableId, at_ms: i64) {
        let _ = self.tx.send(Request::Alive(table.clone(), at_ms));
    }

    /// Keeps an imported document (see [`Journal::put_document`]) and
    /// waits until it is committed.
    pub async fn put_document(
        &self,
        name: &str,
        at_ms: i64,
        body: Vec<u8>,
    ) -> Result<(), JournalError> {
        let (reply, done) = oneshot::channel();
        self.tx
            .send(Request::Document {
                name: name.to_owned(),
                at_ms,
                body,
                reply,
            })
            .map_err(|_| JournalError::Stopped)?;
        match done.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(JournalError::Batch(e)),
            Err(_) => Err(JournalError::Stopped),
        }
    }

    /// Appends one event of `table`'s game `game` and waits until it is
    /// committed.
    pub async fn append(
        &self,
        table: &TableId,
        game: u32,
        at_ms: i64,
        payload: String,
    ) -> Result<i64, JournalError> {
        let (reply, done) = oneshot::channel();
        let event = NewEvent {
            table: table.clone(),
            game,
            at_ms,
            payload,
        };
        self.tx
            .send(Request::Append(event, reply))
            .map_err(|_| JournalError::Stopped)?;
        match done.await {
            Ok(Ok(seq)) => Ok(seq),
            Ok(Err(e)) => Err(JournalError::Batch(e)),
            Err(_) => Err(JournalError::Stopped),
        }
    }
}

impl TableJournal for JournalHandle {
    fn append<'a>(
        &'a self,
        table: &'a TableId,
        game: u32,
        at_ms: i64,
        payload: String,
    ) -> futures_util::future::BoxFuture<'a, Result<i64, NotJournaled>> {
        Box::pin(async move {
            JournalHandle::append(self, table, game, at_ms, payload)
                .await
                .map_err(|e| NotJournaled(Box::new(e)))
        })
    }

    fn alive(&self, table: &TableId, at_ms: i64) {
        JournalHandle::alive(self, table, at_ms);
    }

    fn failing(&self) -> Option<String> {
        JournalHandle::failing(self)
    }
}
