//! The journal: every event of every table, appended to SQLite before it
//! takes effect, so that a restart (even after `kill -9`) resumes every game.
//!
//! One writer thread owns the connection. Tables send their events to it and
//! wait for the acknowledgement; the writer commits whatever has queued up in
//! one transaction (group commit), so a busy venue pays one fsync for many
//! events instead of one each, and no event is acknowledged before it is on
//! disk.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Instant;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use tokio::sync::oneshot;

use crate::table::id::TableId;
use crate::table::journal::{NotJournaled, Record, TableJournal};

// The writer thread and the handle tasks append through.
mod writer;
pub use writer::{CHECKPOINT_EVERY, FAILURE_SUMMARY_EVERY, JournalHandle};

/// What can go wrong with the journal.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("journal {path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error(
        "journal {path} was written by a newer tactus (schema {found}, this one knows {known})"
    )]
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// `tactus journal backup` never overwrites.
    #[error("journal write failed: {path} exists: choose a new name for the copy")]
    BackupExists { path: PathBuf },
    /// A backup waited five seconds for a writer to let go.
    #[error("journal write failed: the journal stayed busy for five seconds: try again")]
    Busy,
    /// A backup's copy could not be renamed into place.
    #[error("journal write failed: {path}: {source}")]
    Rename {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The writer thread's transaction failed (shared by every event of
    /// the batch).
    #[error("journal write failed: {0}")]
    Batch(Arc<JournalError>),
    #[error("the journal writer has stopped")]
    Stopped,
    /// No random source for a new journal's birth.
    #[error("no random source for the journal's birth: {0}")]
    Random(getrandom::Error),
}

/// Wraps a SQLite error with the journal's path.
fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> JournalError + Copy + '_ {
    move |source| JournalError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

/// 1: every event of a table in one sequence (one game per table).
/// 2: events carry the number of their table's game (1, 2, … one per
/// round and replayed game), and imported documents (the pairing
/// program's TRF) are kept. A version-1 journal is upgraded in place: its
/// events are game 1. A tactus that knows only version 1 refuses a
/// version-2 journal rather than mix a table's games into one.
const SCHEMA_VERSION: i64 = 2;

/// SQLite's integrity check: it reads every page, cheap for a venue's
/// journal and the only way to know at start-up that nothing was torn.
fn quick_check(conn: &Connection, path: &Path) -> Result<(), JournalError> {
    let err = sqlite(path);
    let ok: String = conn
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .map_err(err)?;
    if ok != "ok" {
        return Err(err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            Some(ok),
        )));
    }
    Ok(())
}

/// The journal's tables, made where they are missing.
fn create_tables(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS events (
             seq INTEGER PRIMARY KEY AUTOINCREMENT,
             table_id TEXT NOT NULL,
             at_ms INTEGER NOT NULL,
             payload TEXT NOT NULL
         );
         CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq);
         CREATE TABLE IF NOT EXISTS alive (table_id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS documents (
             name TEXT PRIMARY KEY,
             at_ms INTEGER NOT NULL,
             body TEXT NOT NULL
         );",
    )
}

/// The schema version the journal was written with: a newer one is
/// refused; version 1 is upgraded to 2.
fn upgrade_schema(conn: &Connection, path: &Path) -> Result<(), JournalError> {
    let err = sqlite(path);
    let found: i64 = conn
        .query_row(
            "INSERT INTO meta (key, value) VALUES ('schema', ?1)
             ON CONFLICT (key) DO UPDATE SET value = value RETURNING value",
            params![SCHEMA_VERSION],
            |row| row.get(0),
        )
        .map_err(err)?;
    if found > SCHEMA_VERSION {
        return Err(JournalError::NewerSchema {
            path: path.to_path_buf(),
            found,
            known: SCHEMA_VERSION,
        });
    }
    // Version 1 → 2 (also a new file: the column is added once). In
    // one transaction: a crash leaves version 1 or version 2.
    let has_game: bool = conn
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_info('events') WHERE name = 'game'",
            [],
            |row| row.get::<_, i64>(0).map(|n| n > 0),
        )
        .map_err(err)?;
    if !has_game {
        conn.execute_batch(
            "BEGIN;
             ALTER TABLE events ADD COLUMN game INTEGER NOT NULL DEFAULT 1;
             CREATE INDEX IF NOT EXISTS events_by_game ON events (table_id, game, seq);
             UPDATE meta SET value = 2 WHERE key = 'schema';
             COMMIT;",
        )
        .map_err(err)?;
    }
    Ok(())
}

/// How hard a commit waits for the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous=FULL`: a committed event survives a power cut.
    #[default]
    Full,
    /// `synchronous=NORMAL`: survives a crash of tactus, not of the machine.
    Normal,
}

/// The journal file, used from one thread (see [`JournalHandle`] for tasks).
pub struct Journal {
    conn: Connection,
    path: PathBuf,
}

impl Journal {
    /// Opens (creating if needed) the journal at `path` and checks it.
    pub fn open(path: &Path, durability: Durability) -> Result<Journal, JournalError> {
        let err = sqlite(path);
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        // A file that is not a database fails here, on the first read.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "synchronous", sync).map_err(err)?;
        create_tables(&conn).map_err(err)?;
        upgrade_schema(&conn, path)?;
        quick_check(&conn, path)?;
        // The journal's birth: drawn once, when the file is made (an older
        // file gets one at its next start). Game numbers count within one
        // journal; what must never repeat across journals (the second
        // blind player's per-game token) includes it.
        conn.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('birth', ?1)",
            params![new_birth()?],
        )
        .map_err(err)?;
        Ok(Journal {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// The journal's birth, a random number drawn when it was made (a
    /// backup's copy draws its own: restored, it is a new journal whose
    /// game numbers start again where the copy was taken).
    pub fn birth(&self) -> Result<u64, JournalError> {
        let err = sqlite(&self.path);
        let birth: Option<i64> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'birth'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(err)?;
        Ok(birth.unwrap_or(0) as u64)
    }

    /// Opens an existing journal to read it only (`tactus journal check`):
    /// nothing is created or written, a live server's journal included.
    pub fn open_read_only(path: &Path) -> Result<Journal, JournalError> {
        let err = sqlite(path);
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
        quick_check(&conn, path)?;
        Ok(Journal {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// A second, read-only connection to a journal this process has open
    /// for writing (WAL lets it read while the writer writes), without the
    /// integrity check the writer's opening has just done.
    pub fn open_reader(path: &Path) -> Result<Journal, JournalError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sqlite(path))?;
        Ok(Journal {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Copies every committed event into the main file (a passive
    /// checkpoint: it never waits for readers), so that the main file
    /// alone holds them.
    pub fn checkpoint(&self) -> Result<(), JournalError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .map_err(sqlite(&self.path))
    }

    /// A consistent copy of the journal at `out` while it may be in use
    /// (SQLite's online backup API, which copies the pages as of one
    /// instant, the WAL's committed events included). `out` must not exist;
    /// the copy is written beside it and renamed into place when complete.
    pub fn backup(&self, out: &Path) -> Result<(), JournalError> {
        let err = sqlite(out);
        if out.exists() {
            return Err(JournalError::BackupExists {
                path: out.to_path_buf(),
            });
        }
        let mut tmp = out.as_os_str().to_owned();
        tmp.push(".partial");
        let tmp = PathBuf::from(tmp);
        let _ = std::fs::remove_file(&tmp);
        {
            let mut copy = Connection::open(&tmp).map_err(err)?;
            let backup = rusqlite::backup::Backup::new(&self.conn, &mut copy).map_err(err)?;
            // All pages in one step: one consistent instant. A writer
            // holding the lock for a moment is waited for, briefly.
            let mut tries = 0;
            loop {
                match backup.step(-1).map_err(err)? {
                    rusqlite::backup::StepResult::Done => break,
                    _ if tries < 100 => {
                        tries += 1;
                        thread::sleep(std::time::Duration::from_millis(50));
                    }
                    _ => {
                        return Err(JournalError::Busy);
                    }
                }
            }
            drop(backup);
            // A copy that stands alone: one file, no WAL beside it.
            copy.pragma_update(None, "journal_mode", "DELETE")
                .map_err(err)?;
            // Restored, the copy is a journal of its own.
            copy.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'birth'",
                params![new_birth()?],
            )
            .map_err(err)?;
        }
        std::fs::rename(&tmp, out).map_err(|source| JournalError::Rename {
            path: out.to_path_buf(),
            source,
        })
    }

    /// Appends events and records tables' alive marks in one transaction.
    pub fn write(
        &mut self,
        events: &[NewEvent],
        alive: &[(TableId, i64)],
    ) -> Result<Vec<i64>, JournalError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        let mut seqs = Vec::with_capacity(events.len());
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO events (table_id, game, at_ms, payload) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(&err)?;
            for e in events {
                stmt.execute(params![e.table.as_str(), e.game, e.at_ms, e.payload])
                    .map_err(&err)?;
                seqs.push(tx.last_insert_rowid());
            }
            let mut mark = tx
                .prepare_cached(
                    "INSERT INTO alive (table_id, at_ms) VALUES (?1, ?2)
                     ON CONFLICT (table_id) DO UPDATE SET at_ms = MAX(at_ms, excluded.at_ms)",
                )
                .map_err(err)?;
            for (table, at_ms) in alive {
                mark.execute(params![table.as_str(), at_ms]).map_err(err)?;
            }
        }
        tx.commit().map_err(&err)?;
        Ok(seqs)
    }

    /// Every event of `table`, every game, oldest first.
    pub fn events(&self, table: &TableId) -> Result<Vec<Record>, JournalError> {
        self.records(
            "SELECT seq, table_id, game, at_ms, payload FROM events WHERE table_id = ?1 ORDER BY seq",
            params![table.as_str()],
        )
    }

    /// The events of one game of `table`, oldest first.
    pub fn game_events(&self, table: &TableId, game: u32) -> Result<Vec<Record>, JournalError> {
        self.records(
            "SELECT seq, table_id, game, at_ms, payload FROM events
             WHERE table_id = ?1 AND game = ?2 ORDER BY seq",
            params![table.as_str(), game],
        )
    }

    /// The first entry (its setup) of every game of `table`, in order of
    /// the games: what a table has played without reading every move.
    pub fn game_starts(&self, table: &TableId) -> Result<Vec<Record>, JournalError> {
        self.records(
            "SELECT e.seq, e.table_id, e.game, e.at_ms, e.payload FROM events e
             JOIN (SELECT MIN(seq) AS first FROM events WHERE table_id = ?1 GROUP BY game) g
             ON e.seq = g.first ORDER BY e.game",
            params![table.as_str()],
        )
    }

    /// The number of `table`'s latest game, `None` for a table with no
    /// events.
    pub fn current_game(&self, table: &TableId) -> Result<Option<u32>, JournalError> {
        let err = sqlite(&self.path);
        self.conn
            .query_row(
                "SELECT MAX(game) FROM events WHERE table_id = ?1",
                params![table.as_str()],
                |row| row.get(0),
            )
            .map_err(err)
    }

    fn records(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<Record>, JournalError> {
        let err = sqlite(&self.path);
        let mut stmt = self.conn.prepare_cached(sql).map_err(&err)?;
        let rows = stmt
            .query_map(params, |row| {
                Ok(Record {
                    seq: row.get(0)?,
                    table: table_id(row, 1)?,
                    game: row.get(2)?,
                    at_ms: row.get(3)?,
                    payload: row.get(4)?,
                })
            })
            .map_err(&err)?;
        rows.collect::<Result<_, _>>().map_err(&err)
    }

    /// The imported document `name` (the pairing program's TRF file), if
    /// any.
    pub fn document(&self, name: &str) -> Result<Option<Vec<u8>>, JournalError> {
        let err = sqlite(&self.path);
        let mut stmt = self
            .conn
            .prepare_cached("SELECT body FROM documents WHERE name = ?1")
            .map_err(err)?;
        let mut rows = stmt.query(params![name]).map_err(err)?;
        match rows.next().map_err(err)? {
            Some(row) => Ok(Some(row.get(0).map_err(err)?)),
            None => Ok(None),
        }
    }

    /// Keeps `body` as the document `name`, replacing an earlier one. The
    /// bytes as they came (a pairing program's file need not be UTF-8).
    pub fn put_document(
        &mut self,
        name: &str,
        at_ms: i64,
        body: &[u8],
    ) -> Result<(), JournalError> {
        self.conn
            .execute(
                "INSERT INTO documents (name, at_ms, body) VALUES (?1, ?2, ?3)
                 ON CONFLICT (name) DO UPDATE SET at_ms = excluded.at_ms, body = excluded.body",
                params![name, at_ms, body],
            )
            .map(|_| ())
            .map_err(sqlite(&self.path))
    }

    /// The last instant `table` was seen alive with its clock running.
    pub fn last_alive(&self, table: &TableId) -> Result<Option<i64>, JournalError> {
        let err = sqlite(&self.path);
        let mut stmt = self
            .conn
            .prepare_cached("SELECT at_ms FROM alive WHERE table_id = ?1")
            .map_err(err)?;
        let mut rows = stmt.query(params![table.as_str()]).map_err(err)?;
        match rows.next().map_err(err)? {
            Some(row) => Ok(Some(row.get(0).map_err(err)?)),
            None => Ok(None),
        }
    }

    /// The tables that have events, in order of their first event.
    pub fn tables(&self) -> Result<Vec<TableId>, JournalError> {
        let err = sqlite(&self.path);
        let mut stmt = self
            .conn
            .prepare("SELECT table_id FROM events GROUP BY table_id ORDER BY MIN(seq)")
            .map_err(&err)?;
        let rows = stmt.query_map([], |row| table_id(row, 0)).map_err(&err)?;
        rows.collect::<Result<_, _>>().map_err(&err)
    }
}

/// A table's id as the journal keeps it (text), checked as it is read: a
/// row whose id is no table id is an error naming it, never a table.
fn table_id(row: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<TableId> {
    let text: String = row.get(at)?;
    text.parse().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(at, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// An event on its way into the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    pub table: TableId,
    /// The table's game the event belongs to.
    pub game: u32,
    pub at_ms: i64,
    pub payload: String,
}

/// A new journal birth: 63 random bits (SQLite's integers are signed).
fn new_birth() -> Result<i64, JournalError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(JournalError::Random)?;
    Ok((u64::from_le_bytes(bytes) >> 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> TableId {
        s.parse().unwrap()
    }

    fn event(table: &str, n: i64) -> NewEvent {
        NewEvent {
            table: id(table),
            game: 1,
            at_ms: n,
            payload: format!(r#"{{"n":{n}}}"#),
        }
    }

    #[test]
    fn events_survive_reopening_in_order_per_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        {
            let mut j = Journal::open(&path, Durability::Full).unwrap();
            j.write(&[event("t1", 1), event("t2", 2)], &[]).unwrap();
            j.write(&[event("t1", 3)], &[]).unwrap();
        }
        let j = Journal::open(&path, Durability::Normal).unwrap();
        assert_eq!(j.tables().unwrap(), vec![id("t1"), id("t2")]);
        let t1 = j.events(&id("t1")).unwrap();
        assert_eq!(t1.iter().map(|r| r.at_ms).collect::<Vec<_>>(), vec![1, 3]);
        assert!(t1[0].seq < t1[1].seq);
        assert_eq!(t1[1].payload, r#"{"n":3}"#);
        assert_eq!(j.last_alive(&id("t1")).unwrap(), None);
        assert_eq!(j.events(&id("nope")).unwrap(), vec![]);
    }

    #[test]
    fn a_file_that_is_not_a_journal_is_a_clear_error_and_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        let garbage = b"this is not a database, it is a shopping list\n".repeat(200);
        std::fs::write(&path, &garbage).unwrap();
        let err = Journal::open(&path, Durability::Full).err().unwrap();
        let msg = err.to_string();
        assert!(msg.contains("journal.sqlite"), "{msg}");
        assert_eq!(std::fs::read(&path).unwrap(), garbage);
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        drop(Journal::open(&path, Durability::Full).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE meta SET value = 99 WHERE key = 'schema'", [])
            .unwrap();
        drop(conn);
        let err = Journal::open(&path, Durability::Full).err().unwrap();
        assert!(matches!(err, JournalError::NewerSchema { found: 99, .. }));
    }

    /// A data folder written by a tactus of one game per table (schema 1:
    /// no `game` column, as `fdd7f43` created it) keeps working: opened,
    /// it is upgraded in place once, every event is game 1 of its table,
    /// and the next game is written beside it as game 2.
    #[test]
    fn a_version_1_journal_is_read_as_every_table_s_game_1() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                 INSERT INTO meta (key, value) VALUES ('schema', 1);
                 CREATE TABLE events (
                     seq INTEGER PRIMARY KEY AUTOINCREMENT,
                     table_id TEXT NOT NULL,
                     at_ms INTEGER NOT NULL,
                     payload TEXT NOT NULL
                 );
                 CREATE INDEX events_by_table ON events (table_id, seq);
                 CREATE TABLE alive (table_id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL);
                 INSERT INTO events (table_id, at_ms, payload) VALUES
                     ('1', 10, '{\"a\":1}'), ('2', 11, '{\"b\":1}'), ('1', 12, '{\"a\":2}');",
            )
            .unwrap();
        }
        let mut j = Journal::open(&path, Durability::Full).unwrap();
        let games: Vec<u32> = j.events(&id("1")).unwrap().iter().map(|r| r.game).collect();
        assert_eq!(games, [1, 1]);
        assert_eq!(j.current_game(&id("1")).unwrap(), Some(1));
        assert_eq!(j.current_game(&id("2")).unwrap(), Some(1));
        assert_eq!(j.game_events(&id("1"), 1).unwrap()[1].payload, r#"{"a":2}"#);
        let schema: i64 = j
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(schema, SCHEMA_VERSION);
        // The next round's game goes beside it; the first is unchanged.
        let mut next = event("1", 20);
        next.game = 2;
        j.write(&[next], &[]).unwrap();
        drop(j);
        let j = Journal::open(&path, Durability::Full).unwrap();
        assert_eq!(j.current_game(&id("1")).unwrap(), Some(2));
        assert_eq!(j.game_events(&id("1"), 1).unwrap().len(), 2);
        assert_eq!(j.game_starts(&id("1")).unwrap().len(), 2);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_main_file_alone_holds_every_event_a_second_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        let handle = JournalHandle::spawn(Journal::open(&path, Durability::Full).unwrap());
        for n in 0..10 {
            handle.append(&id("1"), 1, n, format!("{n}")).await.unwrap();
        }
        tokio::time::sleep(CHECKPOINT_EVERY * 2).await;
        // The main file alone, copied as the README once said to.
        let copy = dir.path().join("copy.sqlite");
        std::fs::copy(&path, &copy).unwrap();
        let j = Journal::open(&copy, Durability::Full).unwrap();
        assert_eq!(j.events(&id("1")).unwrap().len(), 10);
        // The online backup holds them too, without waiting.
        handle.append(&id("1"), 1, 10, "10".into()).await.unwrap();
        let out = dir.path().join("backup.sqlite");
        Journal::open_read_only(&path)
            .unwrap()
            .backup(&out)
            .unwrap();
        assert!(!dir.path().join("backup.sqlite-wal").exists());
        let b = Journal::open_read_only(&out).unwrap();
        assert_eq!(b.events(&id("1")).unwrap().len(), 11);
        assert!(
            Journal::open_read_only(&path)
                .unwrap()
                .backup(&out)
                .is_err()
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_are_all_committed_and_acknowledged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite");
        let handle = JournalHandle::spawn(Journal::open(&path, Durability::Normal).unwrap());
        // Sent before any append: committed before the appends are acked.
        handle.alive(&id("table-0"), 10);
        handle.alive(&id("table-0"), 5);
        let mut tasks = Vec::new();
        for t in 0..8 {
            let h = handle.clone();
            tasks.push(tokio::spawn(async move {
                let table = format!("table-{t}");
                let mut seqs = Vec::new();
                for n in 0..50 {
                    seqs.push(h.append(&id(&table), 1, n, format!("{n}")).await.unwrap());
                }
                seqs
            }));
        }
        for task in tasks {
            let seqs = task.await.unwrap();
            assert!(seqs.windows(2).all(|w| w[0] < w[1]), "acks out of order");
        }
        drop(handle);
        let j = Journal::open(&path, Durability::Full).unwrap();
        assert_eq!(j.tables().unwrap().len(), 8);
        for t in 0..8 {
            let events = j.events(&id(&format!("table-{t}"))).unwrap();
            let ns: Vec<i64> = events.iter().map(|r| r.at_ms).collect();
            assert_eq!(ns, (0..50).collect::<Vec<_>>());
        }
        // Alive marks only move forward.
        assert_eq!(j.last_alive(&id("table-0")).unwrap(), Some(10));
    }
}
