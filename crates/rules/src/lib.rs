//! Pure rules and records: no I/O, no reading of the system clock. Time is
//! passed in as a [`Duration`](std::time::Duration) since an epoch the
//! caller chooses; chess itself (legal moves, SAN, FEN, outcomes) is
//! shakmaty's.
//!
//! Where to start:
//! - a game at a table: [`game::Game`], changed only by [`event::GameEvent`]s
//!   (what the journal stores), ending with a [`result::GameResult`];
//! - its clock: [`clock::Clock`] under a [`time_control::TimeControl`], the
//!   kind of game ([`game_kind`]) setting the penalties;
//! - what is said: [`token::Token`]s, from [`announce`] (moves),
//!   [`clock_announce`] (the clock on request), [`correction`] (board
//!   fixes) and [`game_announcements`] (whole games), counted words by
//!   [`grammar`]; a voice pack turns tokens into sound;
//! - what is written: scoresheets ([`notation`] for one move, [`sheet`] for
//!   a whole sheet), the D.2.9 [`ruling`] on two sheets, PGN ([`pgn`]),
//!   braille ([`braille_chess`]);
//! - competitions: the pairing program's file, FIDE's TRF-16 ([`trf`]),
//!   read for a round's pairings and given back with results written;
//! - small parts: [`side`] (sides by name), [`variant`] (standard chess and
//!   Chess960), [`date`] (civil dates), [`language`] (the languages tactus
//!   knows, one type for piece letters, pages, voices and braille).
//!
//! # Examples
//!
//! A move made, announced, and written:
//!
//! ```
//! use std::time::Duration;
//! use tactus_rules::announce::Style;
//! use tactus_rules::event::GameEvent;
//! use tactus_rules::game::Game;
//!
//! let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
//! let notices = game
//!     .apply(Duration::from_secs(4), &GameEvent::MovePlayed { uci: "g1f3".parse().unwrap() })
//!     .unwrap();
//! let said: Vec<String> = notices[0].tokens.iter().map(|t| t.key()).collect();
//! assert_eq!(said, ["piece.knight", "file.f", "rank.3"]); // "Springer Felix drei"
//! assert_eq!(game.sans(), ["Nf3"]);
//! ```
#![deny(missing_docs)]

pub mod announce;
pub mod as_text;
pub mod braille_chess;
pub mod clock;
pub mod clock_announce;
pub mod correction;
pub mod date;
pub mod event;
pub mod game;
pub mod game_announcements;
pub mod game_kind;
pub mod grammar;
pub mod language;
pub mod notation;
pub mod pgn;
pub mod result;
pub mod ruling;
pub mod sheet;
pub mod side;
pub mod time_control;
pub mod token;
pub mod trf;
pub mod variant;

// The front door: what the other crates use most, at the crate's root
// (each also at its module's path, where its documentation is).
pub use announce::Style;
pub use clock::Clock;
pub use event::GameEvent;
pub use game::Game;
pub use language::Language;
pub use notation::Lang;
pub use pgn::GameRecord;
pub use result::{FlagRule, GameResult};
pub use ruling::rule;
pub use sheet::Sheet;
pub use time_control::TimeControl;
pub use token::Token;
pub use trf::Trf;
pub use variant::Variant;

/// `missing_docs` (denied above) makes every public item say what it is;
/// this test holds the other half of the rule: every public function, type
/// and constant of `rules` shows its use in an `# Examples` section, a
/// doctest that `cargo test --doc` runs.
#[cfg(test)]
mod examples {
    /// Whether `line` ends the item before a doc comment: the lines between
    /// an item and its own doc are only doc lines and attributes.
    fn ends_an_item(line: &str) -> bool {
        let t = line.trim();
        if t.starts_with("///") {
            return false;
        }
        t.is_empty()
            || t.starts_with("//!")
            || t.ends_with('{')
            || t.ends_with('}')
            || t.ends_with(';')
            || (t.ends_with(',') && !t.starts_with('#') && !t.starts_with('"'))
    }

    #[test]
    fn every_public_function_type_and_constant_has_an_example() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap_or_else(|e| panic!("{dir}: {e}")).path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect();
        files.sort();
        let kinds = [
            "pub fn ",
            "pub const ",
            "pub struct ",
            "pub enum ",
            "pub type ",
            "pub trait ",
        ];
        let (mut items, mut without) = (0, Vec::new());
        for path in files {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let lines: Vec<&str> = text.lines().collect();
            // Unit tests follow the code: their helpers are not public API.
            let end = lines
                .iter()
                .position(|l| l.starts_with("#[cfg(test)]"))
                .unwrap_or(lines.len());
            for (i, line) in lines[..end].iter().enumerate() {
                if !kinds.iter().any(|k| line.trim_start().starts_with(k)) {
                    continue;
                }
                items += 1;
                let doc = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| !ends_an_item(l))
                    .any(|l| l.trim() == "/// # Examples");
                if !doc {
                    without.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
        assert!(
            items > 100,
            "only {items} public items found: the scan is broken"
        );
        assert!(
            without.is_empty(),
            "public items of rules without an `# Examples` section:\n{}",
            without.join("\n")
        );
    }
}
