//! The task between the tables and the display thread: a table's
//! announcements onto the display, the display's keys to the table, for
//! the table of the display's seat and then the next when it moves.

use std::time::Duration;

use tactus_braille::brlapi::Key;
use tactus_rules::game::NoticeKind;

use super::last_moves::{last_moves_cells, last_moves_text};
use super::slot::{Content, ContentTx};
use super::words::Words;
use super::{BrailleShows, DisplaySeat, NewGameLine};
use crate::table::actions::Action;
use crate::table::view::{Announcement, LiveEvent};

/// How a display's time at one table ended.
enum Flow {
    /// Its seat changed: show the next.
    Moved,
    /// The table, or the display thread, is gone.
    Stop,
}

/// Resolves when the seat changes; never once its sender is gone (the seat
/// stays as it is).
async fn moved(seats: &mut tokio::sync::watch::Receiver<Option<DisplaySeat>>) {
    if seats.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The task between the tables and the display thread: the table of the
/// display's seat, then the next when it moves.
pub(super) async fn feed(
    mut seats: tokio::sync::watch::Receiver<Option<DisplaySeat>>,
    shows: BrailleShows,
    new_game: NewGameLine,
    content: ContentTx,
    mut keys: tokio::sync::mpsc::Receiver<Key>,
    mut status: tokio::sync::mpsc::Receiver<()>,
) {
    loop {
        let seat = seats.borrow_and_update().clone();
        let flow = match seat {
            Some(seat) => {
                feed_at(
                    &seat,
                    shows,
                    &new_game,
                    &content,
                    &mut keys,
                    &mut status,
                    &mut seats,
                )
                .await
            }
            // No game now (between rounds, a bye): keys and ticks are
            // nobody's business until there is one.
            None => loop {
                tokio::select! {
                    _ = moved(&mut seats) => break Flow::Moved,
                    key = keys.recv() => if key.is_none() { break Flow::Stop },
                    tick = status.recv() => if tick.is_none() { break Flow::Stop },
                }
            },
        };
        if let Flow::Stop = flow {
            return;
        }
    }
}

/// The display at one table, until its seat moves or the table is gone.
async fn feed_at(
    seat: &DisplaySeat,
    shows: BrailleShows,
    new_game: &NewGameLine,
    content: &ContentTx,
    keys: &mut tokio::sync::mpsc::Receiver<Key>,
    status: &mut tokio::sync::mpsc::Receiver<()>,
    seats: &mut tokio::sync::watch::Receiver<Option<DisplaySeat>>,
) -> Flow {
    // Subscribed before the table is read: no announcement falls between.
    let mut live = seat.handle.subscribe();
    let Some(mut at) = AtTable::arrive(seat, shows, new_game, content).await else {
        return Flow::Stop;
    };
    loop {
        let going = tokio::select! {
            _ = moved(seats) => return Flow::Moved,
            tick = status.recv() => tick.is_some() && at.display_came_or_went().await,
            event = live.recv() => match event {
                Ok(LiveEvent::Announcement(a)) => at.announced(a).await,
                Ok(LiveEvent::State(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
            },
            key = keys.recv() => match key {
                Some(key) => at.pressed(key).await,
                None => false,
            },
        };
        if !going {
            return Flow::Stop;
        }
    }
}

/// A display at one table: what it shows there and how. Each step says
/// whether the display goes on (false: the table, or the display thread,
/// is gone).
struct AtTable<'a> {
    seat: &'a DisplaySeat,
    shows: BrailleShows,
    new_game: &'a NewGameLine,
    content: &'a ContentTx,
    words: Words,
    /// Plies the table had when the display last showed a move.
    plies_shown: usize,
}

impl<'a> AtTable<'a> {
    /// The display arriving at the table: a player's display says where
    /// they are, as the new game's line does. `None`: the table is gone.
    async fn arrive(
        seat: &'a DisplaySeat,
        shows: BrailleShows,
        new_game: &'a NewGameLine,
        content: &'a ContentTx,
    ) -> Option<AtTable<'a>> {
        let v = seat.handle.view().await.ok()?;
        let words = Words::new(&seat.handle.id, &v.voice_lang);
        if !seat.table_display {
            content.send(words.content(&new_game(&v))).ok()?;
        }
        Some(AtTable {
            seat,
            shows,
            new_game,
            content,
            words,
            plies_shown: v.moves.len(),
        })
    }

    /// The display came or went: every page of its table hears of it now.
    async fn display_came_or_went(&self) -> bool {
        !self.seat.table_display || self.seat.handle.republish().await.is_ok()
    }

    /// An announcement, onto the display: a move in braille notation where
    /// the display shows notation, anything else in words.
    async fn announced(&mut self, a: Announcement) -> bool {
        let handle = &self.seat.handle;
        let notation = if self.shows == BrailleShows::Notation && a.kind == NoticeKind::Move {
            self.move_made().await
        } else {
            None
        };
        // A player's display says where they play on arrival at their game
        // (a new game here may be others').
        if a.kind == NoticeKind::NewGame && !self.seat.table_display {
            return true;
        }
        // A new game: the round and the opponent beside the colour the
        // voice said (the state is the new game's: the table publishes it
        // right after).
        let text = match a.kind {
            NoticeKind::NewGame => match handle.view().await {
                Ok(v) => (self.new_game)(&v),
                Err(_) => return false,
            },
            _ => a.text,
        };
        let c = notation
            .map(Content::Dots)
            .unwrap_or_else(|| self.words.content(&text));
        self.content.send(c).is_ok()
    }

    /// The move just announced, in braille notation. The blind player's
    /// move is announced, then made (D.2.3.3): wait (a few seconds at
    /// most) for it to be on the record before writing it.
    async fn move_made(&mut self) -> Option<Vec<u8>> {
        let handle = &self.seat.handle;
        for _ in 0..100 {
            match handle.view().await {
                Ok(v) if v.moves.len() > self.plies_shown => {
                    self.plies_shown = v.moves.len();
                    return last_moves_cells(handle, 1).await;
                }
                Ok(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                Err(_) => return None,
            }
        }
        None
    }

    /// A key of the display that is the table's business: an action at the
    /// table, or the last moves shown.
    async fn pressed(&self, key: Key) -> bool {
        let handle = &self.seat.handle;
        let action = match key {
            Key::Route(_) => Some(Action::Repeat),
            Key::LineDown => Some(Action::SayClock { time: None }),
            Key::Top => Some(Action::BoardDifferences),
            Key::LineUp | Key::Home => None,
            _ => return true,
        };
        match action {
            // The answer comes back as an announcement, and so onto the
            // display.
            Some(action) => {
                if let Err(e) = handle.act_in(self.seat.game, self.seat.role, action).await {
                    let _ = self.content.send(self.words.content(&e.to_string()));
                }
                true
            }
            None => {
                let c = match self.shows {
                    BrailleShows::Notation => last_moves_cells(handle, 4).await.map(Content::Dots),
                    BrailleShows::Words => last_moves_text(handle, 4)
                        .await
                        .map(|t| self.words.content(&t)),
                };
                c.is_none_or(|c| self.content.send(c).is_ok())
            }
        }
    }
}
