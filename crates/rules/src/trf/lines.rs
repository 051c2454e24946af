//! The file's lines as read and written: each line's text and ending,
//! its columns (characters in a UTF-8 file, bytes otherwise), and a
//! player's `001` line read at its columns, round block by round block.

use super::*;

/// How a line ended in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ending {
    CrLf,
    Lf,
    Cr,
    /// The last line, with no ending.
    None,
}

impl Ending {
    pub(super) fn bytes(self) -> &'static [u8] {
        match self {
            Ending::CrLf => b"\r\n",
            Ending::Lf => b"\n",
            Ending::Cr => b"\r",
            Ending::None => b"",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// One line of the file: its text and how it ended.
pub(super) struct Line {
    pub(super) text: Vec<u8>,
    pub(super) ending: Ending,
}

/// Lines ended by CR LF, LF or a lone CR, each keeping its ending.
pub(super) fn split_lines(body: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        match rest.iter().position(|&b| b == b'\r' || b == b'\n') {
            None => {
                lines.push(Line {
                    text: rest.to_vec(),
                    ending: Ending::None,
                });
                break;
            }
            Some(at) => {
                let (ending, len) = match (rest[at], rest.get(at + 1)) {
                    (b'\r', Some(b'\n')) => (Ending::CrLf, 2),
                    (b'\r', _) => (Ending::Cr, 1),
                    _ => (Ending::Lf, 1),
                };
                lines.push(Line {
                    text: rest[..at].to_vec(),
                    ending,
                });
                rest = &rest[at + len..];
            }
        }
    }
    lines
}

/// A line's columns: characters of a UTF-8 line, bytes (as Latin-1) of
/// any other.
pub(super) fn columns(text: &[u8], utf8: bool) -> Vec<char> {
    match std::str::from_utf8(text) {
        Ok(s) if utf8 => s.chars().collect(),
        _ => text.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Writes the ASCII byte `byte` at `column` of a line, padding the line with
/// spaces up to it first if it is shorter.
pub(super) fn write_column(text: &mut Vec<u8>, utf8: bool, column: usize, byte: u8) {
    let offsets: Vec<usize> = match std::str::from_utf8(text) {
        Ok(s) if utf8 => s.char_indices().map(|(i, _)| i).collect(),
        _ => (0..text.len()).collect(),
    };
    match offsets.get(column) {
        // A block's columns are ASCII (checked when read): one byte each.
        Some(&at) => text[at] = byte,
        None => {
            text.extend(std::iter::repeat_n(b' ', column - offsets.len()));
            text.push(byte);
        }
    }
}

/// The text of 1-based columns `first..=last`, blank past the line's end,
/// without surrounding spaces.
pub(super) fn field(cols: &[char], first: usize, last: usize) -> String {
    cols.iter()
        .skip(first - 1)
        .take(last + 1 - first)
        .collect::<String>()
        .trim()
        .to_owned()
}

pub(super) fn read_player(cols: &[char], line: usize) -> Result<Player, TrfErrorKind> {
    let number = |name, columns, first, last, max: u64| {
        let value = field(cols, first, last);
        if value.is_empty() {
            return Ok(None);
        }
        match value.parse::<u64>() {
            Ok(n) if n <= max && value.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
            _ => Err(TrfErrorKind::Field {
                field: name,
                columns,
                expected: if max == 9999 {
                    "not a number from 0 to 9999"
                } else {
                    "not a number"
                },
                value,
            }),
        }
    };
    let rank_field = field(cols, 5, 8);
    let start_rank = match rank_field.parse::<u16>() {
        Ok(n @ 1..=9999) if rank_field.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => {
            return Err(TrfErrorKind::Field {
                field: "start rank",
                columns: "5-8",
                value: rank_field,
                expected: "not a number from 1 to 9999",
            });
        }
    };
    let points = field(cols, 81, 84);
    let points_tenths = if points.is_empty() {
        None
    } else {
        Some(tenths(&points).ok_or(TrfErrorKind::Field {
            field: "points",
            columns: "81-84",
            value: points,
            expected: "not a score such as 2.5",
        })?)
    };
    let mut rounds = Vec::new();
    let mut start = FIRST_ROUND_COLUMN;
    while start < cols.len() {
        if rounds.len() == usize::from(MAX_ROUNDS) {
            return Err(TrfErrorKind::TooManyRounds);
        }
        let round = rounds.len() as u16 + 1;
        rounds.push(read_block(cols, start, round, start_rank)?);
        start += ROUND_WIDTH;
    }
    // Blank blocks at the end are no rounds (trailing spaces).
    while rounds.last() == Some(&RoundEntry::NotPaired) {
        rounds.pop();
    }
    Ok(Player {
        start_rank,
        sex: cols.get(9).copied().filter(|c| *c != ' '),
        title: field(cols, 11, 13),
        name: field(cols, 15, 47),
        rating: number("rating", "49-52", 49, 52, 9999)?.map(|n| n as u16),
        federation: field(cols, 54, 56),
        fide_id: number("FIDE id", "58-68", 58, 68, u64::MAX)?,
        birth_date: field(cols, 70, 79),
        points_tenths,
        rank: number("rank", "86-89", 86, 89, 9999)?.map(|n| n as u16),
        rounds,
        line,
    })
}

/// `2.5` as 25, `3` as 30.
pub(super) fn tenths(s: &str) -> Option<u32> {
    let (whole, tenth) = s.split_once('.').unwrap_or((s, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(tenth) || tenth.len() > 1 || whole.len() > 4 {
        return None;
    }
    Some(whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?)
}

/// One round's 10 columns from `start` (0-based); blank past the line's end.
pub(super) fn read_block(
    cols: &[char],
    start: usize,
    round: u16,
    own: u16,
) -> Result<RoundEntry, TrfErrorKind> {
    let at = |i: usize| cols.get(start + i).copied().unwrap_or(' ');
    let block: String = (0..ROUND_WIDTH).map(at).collect();
    let fail = |problem| {
        Err(TrfErrorKind::Block {
            round,
            first: start + 1,
            last: start + ROUND_WIDTH,
            block: block.trim_end().to_owned(),
            problem,
        })
    };
    if block.trim().is_empty() {
        return Ok(RoundEntry::NotPaired);
    }
    if !block.is_ascii() {
        return fail("a round's columns are ASCII");
    }
    if [4, 6, 8, 9].iter().any(|&i| at(i) != ' ') {
        return fail("columns between opponent, colour and result must be blank");
    }
    let opponent = block[..4].trim();
    let opponent = if opponent.is_empty() {
        0
    } else if opponent.bytes().all(|b| b.is_ascii_digit()) {
        match opponent.parse::<u16>() {
            Ok(n) if n <= 9999 => n,
            _ => return fail("the opponent is not a start rank"),
        }
    } else {
        return fail("the opponent is not a start rank or 0000");
    };
    let colour = match at(COLOUR_OFFSET) {
        'w' | 'W' => Some(Color::White),
        'b' | 'B' => Some(Color::Black),
        '-' | ' ' => None,
        _ => return fail("the colour is not w, b or -"),
    };
    let result = match at(RESULT_OFFSET) {
        ' ' => None,
        c => match ResultChar::from_char(c) {
            Some(r) => Some(r),
            None => return fail("the result is not one of 1 0 = + - W D L H F U Z"),
        },
    };
    if opponent == 0 {
        if colour.is_some() {
            return fail("a colour without an opponent");
        }
        if result.is_some_and(|r| !r.is_bye()) {
            return fail("a game's result without an opponent");
        }
        return Ok(RoundEntry::Bye { result });
    }
    if opponent == own {
        return fail("a player paired with themselves");
    }
    if result.is_some_and(|r| !r.is_game()) {
        return fail("a bye's letter against an opponent");
    }
    Ok(RoundEntry::Game {
        opponent,
        colour,
        result,
    })
}
