//! The game record in braille: the tags as a heading, the moves in the
//! braille chess code (`rules::braille_chess`), draw offers, the result and
//! optionally the clock times, laid out on pages of at most [`WIDTH`]
//! cells by [`HEIGHT`] lines and written as BRF or as Unicode braille.
//!
//! Words (labels, names, the event, the result in words) go through
//! liblouis with the table for the language; the notation does not.

use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Color, KnownOutcome, Outcome, Position};

use super::cells::{self, BLANK, Cell};
use super::louis;
use tactus_rules::braille_chess;
use tactus_rules::language::Language;
use tactus_rules::pgn::{GameRecord, PgnError, format_clock};

/// Cells per line: an embosser's and note-taker's usual 40.
pub const WIDTH: usize = 40;
/// Lines per page.
pub const HEIGHT: usize = 25;
/// Cells a wrapped line is indented by.
const INDENT: usize = 2;

/// How the record is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The language of the words: its labels (English for a language
    /// without its own) and its liblouis table.
    pub lang: Language,
    /// The clock time after every move.
    pub clock: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lang: Language::En,
            clock: false,
        }
    }
}

/// Why there is no braille record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error(transparent)]
    Louis(#[from] louis::LouisError),
}

/// The record on braille pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Pages of lines of cells.
    pub pages: Vec<Vec<Vec<Cell>>>,
}

impl Document {
    /// BRF: ASCII braille, lines ended by CR LF, a form feed between pages.
    pub fn brf(&self) -> String {
        self.write(cells::brf_line, "\r\n")
    }

    /// Unicode braille (a blank cell is U+2800), lines ended by LF, a form
    /// feed between pages.
    pub fn unicode(&self) -> String {
        self.write(cells::unicode_line, "\n")
    }

    fn write(&self, line: fn(&[Cell]) -> String, eol: &str) -> String {
        let mut out = String::new();
        for (i, page) in self.pages.iter().enumerate() {
            if i > 0 {
                out.push('\u{c}');
            }
            for l in page {
                out.push_str(&line(l));
                out.push_str(eol);
            }
        }
        out
    }
}

/// The words of a record in one language.
struct Words {
    event: &'static str,
    site: &'static str,
    date: &'static str,
    round: &'static str,
    white: &'static str,
    black: &'static str,
    control: &'static str,
    white_wins: &'static str,
    black_wins: &'static str,
    draw: &'static str,
    unfinished: &'static str,
}

fn words(lang: Language) -> Words {
    match lang {
        Language::De => Words {
            event: "Turnier",
            site: "Ort",
            date: "Datum",
            round: "Runde",
            white: "Weiß",
            black: "Schwarz",
            control: "Bedenkzeit",
            white_wins: "Weiß gewinnt",
            black_wins: "Schwarz gewinnt",
            draw: "Remis",
            unfinished: "Partie nicht beendet",
        },
        Language::Es => Words {
            event: "Torneo",
            site: "Lugar",
            date: "Fecha",
            round: "Ronda",
            white: "Blancas",
            black: "Negras",
            control: "Ritmo",
            white_wins: "Ganan las blancas",
            black_wins: "Ganan las negras",
            draw: "Tablas",
            unfinished: "Partida no terminada",
        },
        Language::Fr => Words {
            event: "Tournoi",
            site: "Lieu",
            date: "Date",
            round: "Ronde",
            white: "Blancs",
            black: "Noirs",
            control: "Cadence",
            white_wins: "Les blancs gagnent",
            black_wins: "Les noirs gagnent",
            draw: "Nulle",
            unfinished: "Partie non terminée",
        },
        _ => Words {
            event: "Event",
            site: "Site",
            date: "Date",
            round: "Round",
            white: "White",
            black: "Black",
            control: "Time control",
            white_wins: "White wins",
            black_wins: "Black wins",
            draw: "Draw",
            unfinished: "Game not finished",
        },
    }
}

/// Splits `cells` into lines of at most `width` at blank cells (a word
/// longer than a line is cut); lines after the first are indented.
fn wrap(cells: &[Cell], width: usize, out: &mut Vec<Vec<Cell>>) {
    let words: Vec<&[Cell]> = cells
        .split(|&c| c == BLANK)
        .filter(|w| !w.is_empty())
        .collect();
    let mut line: Vec<Cell> = Vec::new();
    for word in words {
        let mut word = word;
        loop {
            let sep = usize::from(!line.is_empty() && line.iter().any(|&c| c != BLANK));
            if line.len() + sep + word.len() <= width {
                if sep == 1 {
                    line.push(BLANK);
                }
                line.extend_from_slice(word);
                break;
            }
            if line.iter().any(|&c| c != BLANK) {
                out.push(std::mem::take(&mut line));
                line = vec![BLANK; INDENT];
                continue;
            }
            // A word longer than the room left on an empty line: cut it.
            let room = width - line.len();
            line.extend_from_slice(&word[..room]);
            out.push(std::mem::take(&mut line));
            line = vec![BLANK; INDENT];
            word = &word[room..];
        }
    }
    if line.iter().any(|&c| c != BLANK) {
        out.push(line);
    }
}

/// The record laid out on braille pages.
pub fn render(record: &GameRecord, options: &Options) -> Result<Document, RecordError> {
    let mut layout = Layout {
        table: louis::table_for(options.lang),
        words: words(options.lang),
        lines: Vec::new(),
    };
    layout.heading(record)?;
    layout.moves(record, options.clock)?;
    layout.result(record.result)?;
    Ok(Document {
        pages: pages(layout.lines),
    })
}

/// A record's lines as they are laid out, before the pages.
struct Layout {
    /// The liblouis table of the words' language.
    table: &'static str,
    words: Words,
    lines: Vec<Vec<Cell>>,
}

impl Layout {
    /// Words in braille, through liblouis.
    fn text(&self, s: &str) -> Result<Vec<Cell>, louis::LouisError> {
        // Paper has six dots: liblouis marks a character its table lacks (the
        // replacement character of bad UTF-8, say) with dots 7 and 8, which
        // BRF cannot carry; both outputs drop them, so that they agree.
        louis::translate(self.table, s).map(|c| c.into_iter().map(|d| d & 0x3F).collect::<Vec<_>>())
    }

    /// The heading: the tags a reader looks for, each on its own line.
    fn heading(&mut self, record: &GameRecord) -> Result<(), RecordError> {
        let w = &self.words;
        let known = |name: &str| {
            record
                .tag(name)
                .filter(|v| !v.trim().is_empty() && !v.contains('?'))
                .map(str::to_owned)
        };
        let mut heading: Vec<(&str, String)> = Vec::new();
        for (label, tag) in [
            (w.white, "White"),
            (w.black, "Black"),
            (w.event, "Event"),
            (w.site, "Site"),
            (w.date, "Date"),
            (w.round, "Round"),
        ] {
            if let Some(v) = known(tag) {
                heading.push((label, v));
            }
        }
        if let Some(tc) = &record.time_control {
            heading.push((w.control, tc.to_string()));
        } else if let Some(v) = known("TimeControl") {
            heading.push((w.control, v));
        }
        for (label, value) in &heading {
            let cells = self.text(&format!("{label}: {value}"))?;
            wrap(&cells, WIDTH, &mut self.lines);
        }
        if !self.lines.is_empty() {
            self.lines.push(Vec::new());
        }
        Ok(())
    }

    /// The moves: one move number to a line, White's move and Black's.
    fn moves(&mut self, record: &GameRecord, clock: bool) -> Result<(), RecordError> {
        let mut pos = record.start_position()?;
        let mut unit: Vec<Cell> = Vec::new();
        let offer = self.text("(=)")?;
        for (i, rm) in record.moves.iter().enumerate() {
            if !pos.is_legal(rm.m) {
                return Err(PgnError::Illegal {
                    ply: i + 1,
                    san: format!("{:?}", rm.m),
                    reason: "not legal in the position".into(),
                }
                .into());
            }
            let white = pos.turn() == Color::White;
            let number = pos.fullmoves().get();
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, rm.m);
            if white || i == 0 {
                if !unit.is_empty() {
                    wrap(&unit, WIDTH, &mut self.lines);
                    unit.clear();
                }
                unit.extend(braille_chess::lower_number(number));
                unit.push(BLANK);
                if !white {
                    unit.push(braille_chess::BLACK_FIRST);
                }
            } else {
                unit.push(BLANK);
            }
            unit.extend(braille_chess::san_cells(&san));
            if rm.draw_offer {
                unit.push(BLANK);
                unit.extend_from_slice(&offer);
            }
            if clock && let Some(clock) = rm.clock {
                unit.push(BLANK);
                unit.extend(self.text(&format!("({})", format_clock(round_clock(clock))))?);
            }
        }
        if !unit.is_empty() {
            wrap(&unit, WIDTH, &mut self.lines);
        }
        Ok(())
    }

    /// The result: the score in the code's digits, then in words.
    fn result(&mut self, outcome: Outcome) -> Result<(), RecordError> {
        let w = &self.words;
        let mut result = Vec::new();
        let said = match outcome {
            Outcome::Known(k) => {
                result.extend(braille_chess::score(k));
                result.push(BLANK);
                match k {
                    KnownOutcome::Decisive {
                        winner: Color::White,
                    } => w.white_wins,
                    KnownOutcome::Decisive {
                        winner: Color::Black,
                    } => w.black_wins,
                    KnownOutcome::Draw => w.draw,
                }
            }
            Outcome::Unknown => w.unfinished,
        };
        result.extend(self.text(said)?);
        self.lines.push(Vec::new());
        wrap(&result, WIDTH, &mut self.lines);
        Ok(())
    }
}

/// Pages of at most [`HEIGHT`] lines: never a page that starts with a
/// blank line.
fn pages(lines: Vec<Vec<Cell>>) -> Vec<Vec<Vec<Cell>>> {
    let mut pages: Vec<Vec<Vec<Cell>>> = Vec::new();
    let mut page: Vec<Vec<Cell>> = Vec::new();
    for line in lines {
        if page.len() == HEIGHT {
            pages.push(std::mem::take(&mut page));
        }
        if page.is_empty() && line.is_empty() {
            continue;
        }
        page.push(line);
    }
    if !page.is_empty() || pages.is_empty() {
        pages.push(page);
    }
    pages
}

/// Whole seconds, as a scoresheet notes them.
fn round_clock(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole_and_lines_short() {
        let word = [1u8; 7];
        let mut cells = Vec::new();
        for _ in 0..10 {
            cells.extend_from_slice(&word);
            cells.push(BLANK);
        }
        let mut out = Vec::new();
        wrap(&cells, 20, &mut out);
        assert!(out.iter().all(|l| l.len() <= 20));
        assert_eq!(out[0].len(), 15);
        assert_eq!(&out[1][..2], &[BLANK, BLANK]);
        let mut long = Vec::new();
        wrap(&[3u8; 45], 20, &mut long);
        assert_eq!(
            long.iter().map(|l| l.len()).collect::<Vec<_>>(),
            [20, 20, 9]
        );
    }
}
