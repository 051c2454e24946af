//! A listed player's own braille display (`braille` on their `[[player]]`:
//! a brltty on their own computer, reached over BrlAPI), which follows
//! them from board to board as the rounds move them: it shows their game's
//! announcements, and its keys (repeat, clock, the board's differences,
//! the last moves) act in their game, for their side, as their own token
//! does. Between rounds, or on a bye, it shows nothing new and its keys
//! wait.
//!
//! Where the player plays is looked up at once when a round is set up, and
//! every [`FOLLOW_EVERY`] besides (a player taken out of the file, a
//! restart): from the tables' published views, without a message to any
//! table. On arrival at their game the display says the round, the board,
//! their colour and their opponent: where to sit. The
//! display itself is the table display's (`table/display.rs`): one thread
//! per display, retried with backoff, never holding up a table.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::Color;
use tokio::sync::watch;

use crate::service::competition::Competition;
use crate::service::startup::config::PlayerConfig;
use crate::table::actions::PersonRole;
use crate::table::display::{self, BrailleSpec, DisplaySeat, DisplayStatus};
use crate::table::handle::TableHandle;
use crate::table::id::TableId;
use crate::table::view::TableView;
use tactus_rules::language::Language;

/// How often a player's display looks up where they play besides at each
/// round set up.
pub const FOLLOW_EVERY: Duration = Duration::from_secs(5);

/// Starts the display of every listed player who has one; their states,
/// by start rank.
pub fn attach_all(
    players: &[PlayerConfig],
    boards: &[TableId],
    competition: &Arc<Competition>,
    tables: &Arc<BTreeMap<TableId, TableHandle>>,
) -> std::io::Result<BTreeMap<u16, DisplayStatus>> {
    let mut states = BTreeMap::new();
    for p in players {
        if p.braille == BrailleSpec::None {
            continue;
        }
        let rank = p.start_rank;
        let status = DisplayStatus::new();
        let (seat_tx, seats) = watch::channel(None);
        let boards = boards.to_vec();
        display::attach_following(
            format!("player {rank}"),
            seats,
            &p.braille,
            p.braille_shows,
            Arc::new(move |v: &TableView| line_for(rank, &boards, v)),
            &status,
        )?;
        tokio::spawn(follow(
            rank,
            Arc::clone(competition),
            Arc::clone(tables),
            seat_tx,
        ));
        states.insert(rank, status);
    }
    Ok(states)
}

/// Player `rank`'s line on arrival at their game: the round, the board
/// (the table's place in the venue's order), their colour and their
/// opponent, in the table's language, as their page says it.
fn line_for(rank: u16, boards: &[TableId], v: &TableView) -> String {
    let lang = crate::service::i18n::pages_for(Language::from_tag(&v.voice_lang));
    let colour = v.ranks.find(|r| *r == Some(rank)).unwrap_or(v.blind);
    let opponent = match colour {
        Color::White => &v.black,
        Color::Black => &v.white,
    };
    let board = boards
        .iter()
        .position(|b| *b == v.id)
        .map_or_else(|| v.id.to_string(), |i| (i + 1).to_string());
    let side = crate::service::i18n::message(lang, tactus_rules::side::name(colour), &[]);
    crate::service::i18n::message(
        lang,
        "js-seat",
        &[
            ("round", v.round.as_str()),
            ("board", board.as_str()),
            ("side", side.as_str()),
            ("name", opponent.as_str()),
        ],
    )
}

/// Keeps player `rank`'s display's seat where they play, until the
/// display is gone.
async fn follow(
    rank: u16,
    competition: Arc<Competition>,
    tables: Arc<BTreeMap<TableId, TableHandle>>,
    seat: watch::Sender<Option<DisplaySeat>>,
) {
    let mut every = tokio::time::interval(FOLLOW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut seating = competition.seating();
    while !seat.is_closed() {
        tokio::select! {
            _ = every.tick() => {}
            changed = seating.changed() => if changed.is_err() { return },
        }
        let now = match competition.seat_of(rank).await {
            Ok(Ok(s)) => tables.get(&s.table).map(|handle| DisplaySeat {
                handle: handle.clone(),
                // As their own token acts: the table's blind side is its
                // `player`, the other its second blind player.
                role: if s.colour == s.blind {
                    PersonRole::Player
                } else {
                    PersonRole::Opponent
                },
                game: Some(s.game),
                table_display: false,
            }),
            // No game now, or the player is no longer listed.
            Ok(Err(_)) | Err(_) => None,
        };
        seat.send_if_modified(|current| {
            let key =
                |s: &Option<DisplaySeat>| s.as_ref().map(|s| (s.handle.id.clone(), s.role, s.game));
            if key(current) == key(&now) {
                return false;
            }
            *current = now;
            true
        });
    }
}
