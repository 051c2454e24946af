//! The TRF-26 records tactus reads beside the players' lines, and the
//! points column (81–84) kept up to date.
//!
//! A pairing engine checks every player's points against the results on
//! their line ("The score for player 3 does not match the game results.",
//! bbpPairings), and TRF-26 makes the points mandatory for pairing: so a
//! result written by tactus moves the points by what that result is worth
//! in the file's point system.
//!
//! | record | what tactus does with it |
//! |--------|--------------------------|
//! | `012`  | the event's name (PGN `Event`) |
//! | `022`  | the city (PGN `Site`) |
//! | `132`  | each round's date, in its round's columns (PGN `Date`) |
//! | `142`, `XXR` | the number of rounds |
//! | `152`, `XXC white1/black1` | the first player's colour in round 1 |
//! | `162`  | the point system (`W`, `D`, `L`, `Z`, `P`), as pairing engines read it |
//! | `BBW` `BBD` `BBL` `BBZ` `BBF` `BBU` | the point system as JaVaFo and bbpPairings write it |
//! | `222`  | the time control, a round's own when the body gives none |
//! | `###`  | a comment: kept, never read |

use shakmaty::Color;

use super::{FIRST_ROUND_COLUMN, ROUND_WIDTH, ResultChar, RoundEntry, Trf, TrfError, TrfErrorKind};
use crate::time_control::TimeControl;

/// What each result is worth, in tenths of a point: FIDE's defaults
/// (1, ½, 0; a forfeit loss and a zero-point bye 0; the pairing-allocated
/// bye a win) unless the file says otherwise.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{PointSystem, ResultChar, Trf};
///
/// let fide = PointSystem::default();
/// assert_eq!(fide.of(ResultChar::Draw), 5);
/// assert_eq!(fide.of(ResultChar::HalfPointBye), 5);
/// let trf = Trf::parse("162  W 3.0    D 1.0    L 0.0\n001    1      Ana\n").unwrap();
/// assert_eq!(trf.point_system().of(ResultChar::Win), 30);
/// assert_eq!(trf.point_system().of(ResultChar::PairingAllocatedBye), 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointSystem {
    /// A win, played or not, a forfeit win, a full-point bye.
    pub win: u32,
    /// A draw, played or not, a half-point bye.
    pub draw: u32,
    /// A loss, played or not.
    pub loss: u32,
    /// A zero-point bye (absent).
    pub zero_bye: u32,
    /// A forfeit loss (did not come).
    pub forfeit_loss: u32,
    /// The bye the pairing gives (`U`).
    pub pairing_bye: u32,
}

impl Default for PointSystem {
    fn default() -> PointSystem {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// What `result` is worth, in tenths, as bbpPairings counts it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::{PointSystem, ResultChar};
    ///
    /// let ps = PointSystem::default();
    /// assert_eq!(ps.of(ResultChar::UnratedWin), 10); // W: a win, not played
    /// assert_eq!(ps.of(ResultChar::ForfeitLoss), 0);
    /// ```
    pub fn of(&self, result: ResultChar) -> u32 {
        use ResultChar::*;
        match result {
            Win | ForfeitWin | UnratedWin | FullPointBye => self.win,
            Draw | UnratedDraw | HalfPointBye => self.draw,
            Loss | UnratedLoss => self.loss,
            ForfeitLoss => self.forfeit_loss,
            ZeroPointBye => self.zero_bye,
            PairingAllocatedBye => self.pairing_bye,
        }
    }

    /// The point system of the file's `162` and `BB?` lines, in file order
    /// (a later line overrides an earlier one).
    pub(super) fn read(trf: &Trf) -> Result<PointSystem, TrfError> {
        let mut ps = PointSystem::default();
        // A `P` or `BBU` fixes the pairing bye; otherwise it follows a win.
        let mut own_bye = false;
        for (i, line) in trf.lines.iter().enumerate() {
            let text = String::from_utf8_lossy(&line.text);
            let fail = |why: String| TrfError {
                line: i + 1,
                kind: TrfErrorKind::PointSystem(why),
            };
            if let Some(rest) = text.strip_prefix("162") {
                // bbpPairings' reading: a letter at column 6, then its
                // 4-column score, every 9 columns.
                let chars: Vec<char> = rest.chars().collect();
                let mut at = 2;
                while chars.iter().skip(at).any(|c| *c != ' ') {
                    let letter = chars.get(at).copied().unwrap_or(' ');
                    let score: String = chars.iter().skip(at + 1).take(4).collect();
                    let value = super::tenths(score.trim()).ok_or_else(|| {
                        fail(format!(
                            "`{letter}` at column {}: `{score}` is not a score such as 1.0 \
                             (a code every 9 columns from column 6, then its score)",
                            at + 4
                        ))
                    })?;
                    // `Z` is also the forfeit loss's, as bbpPairings reads it.
                    let worth = match letter {
                        'W' => Worth::Win,
                        'D' => Worth::Draw,
                        'L' => Worth::Loss,
                        'Z' => Worth::ZeroByeAndForfeit,
                        'P' => Worth::PairingBye,
                        c => {
                            return Err(fail(format!(
                                "`{c}` at column {}: the codes are W, D, L, Z, P",
                                at + 4
                            )));
                        }
                    };
                    ps.set(worth, value, &mut own_bye);
                    at += 9;
                }
                if at == 2 {
                    return Err(fail("no point given".into()));
                }
                continue;
            }
            let worth = match text.get(..3) {
                Some("BBW") => Worth::Win,
                Some("BBD") => Worth::Draw,
                Some("BBL") => Worth::Loss,
                Some("BBZ") => Worth::ZeroBye,
                Some("BBF") => Worth::ForfeitLoss,
                Some("BBU") => Worth::PairingBye,
                _ => continue,
            };
            let value = super::tenths(text[3..].trim()).ok_or_else(|| {
                fail(format!("`{}` is not a score such as 1.0", text[3..].trim()))
            })?;
            ps.set(worth, value, &mut own_bye);
        }
        Ok(ps)
    }

    /// Sets what one kind of result is worth; a win sets the pairing bye
    /// too until the file gives the bye its own (`own_bye`).
    fn set(&mut self, worth: Worth, value: u32, own_bye: &mut bool) {
        match worth {
            Worth::Win => {
                self.win = value;
                if !*own_bye {
                    self.pairing_bye = value;
                }
            }
            Worth::Draw => self.draw = value,
            Worth::Loss => self.loss = value,
            Worth::ZeroBye => self.zero_bye = value,
            Worth::ForfeitLoss => self.forfeit_loss = value,
            Worth::ZeroByeAndForfeit => {
                self.zero_bye = value;
                self.forfeit_loss = value;
            }
            Worth::PairingBye => {
                self.pairing_bye = value;
                *own_bye = true;
            }
        }
    }
}

/// What a point-system code sets.
#[derive(Debug, Clone, Copy)]
enum Worth {
    Win,
    Draw,
    Loss,
    ZeroBye,
    ForfeitLoss,
    ZeroByeAndForfeit,
    PairingBye,
}

/// Tenths as TRF writes points in columns 81–84: ` 2.5`, `10.0`.
pub(super) fn points_field(tenths: u32) -> Option<String> {
    (tenths <= 999).then(|| format!("{:>4}", format!("{}.{}", tenths / 10, tenths % 10)))
}

/// What a player's results add up to in `ps`.
pub(super) fn sum(rounds: &[RoundEntry], ps: &PointSystem) -> u32 {
    rounds
        .iter()
        .filter_map(|r| match *r {
            RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
            RoundEntry::NotPaired => None,
        })
        .map(|r| ps.of(r))
        .sum()
}

impl Trf {
    /// The file's point system (`162`, `BBW` … lines; FIDE's defaults).
    pub fn point_system(&self) -> PointSystem {
        self.points
    }

    /// What player `rank`'s results add up to, in tenths.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse("001    1      Ana                                                                0.5       0000 - H\n").unwrap();
    /// assert_eq!(trf.results_points(1), Some(5));
    /// ```
    pub fn results_points(&self, rank: u16) -> Option<u32> {
        self.player(rank).map(|p| sum(&p.rounds, &self.points))
    }

    /// Every player's points column agrees with their results, as a pairing
    /// engine checks it: the first line that does not, named. A file with
    /// acceleration (`XXA`, `250`) may add points no result explains, and a
    /// blank column says nothing: those are not checked.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let stale = "001    1      Ana                                                                0.0       0000 - F\n";
    /// let err = Trf::parse(stale).unwrap().check_points().unwrap_err();
    /// assert_eq!(err.to_string(), "line 1: player 1's points (columns 81-84) are 0.0, but the results add up to 1.0");
    /// ```
    pub fn check_points(&self) -> Result<(), TrfError> {
        let accelerated = self
            .lines
            .iter()
            .any(|l| l.text.starts_with(b"XXA") || l.text.starts_with(b"250"));
        if accelerated {
            return Ok(());
        }
        for p in &self.players {
            let results = sum(&p.rounds, &self.points);
            if let Some(written) = p.points_tenths
                && written != results
            {
                return Err(TrfError {
                    line: p.line,
                    kind: TrfErrorKind::PointsDisagree {
                        rank: p.start_rank,
                        written: tenths_text(written),
                        results: tenths_text(results),
                    },
                });
            }
        }
        Ok(())
    }

    /// The number of rounds: TRF-26's `142`, or `XXR` as older pairing
    /// programs write it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("142 7\n001    1      Ana\n").unwrap().planned_rounds(), Some(7));
    /// assert_eq!(Trf::parse("XXR 9\n001    1      Ana\n").unwrap().planned_rounds(), Some(9));
    /// ```
    pub fn planned_rounds(&self) -> Option<u16> {
        ["142", "XXR"]
            .iter()
            .find_map(|code| self.record(code).and_then(|rest| rest.trim().parse().ok()))
    }

    /// The colour of the first player in round 1 (TRF-26's `152 W`/`152 B`,
    /// or `XXC white1`/`black1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Color;
    /// use tactus_rules::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("152 B\n001    1      Ana\n").unwrap().initial_colour(), Some(Color::Black));
    /// assert_eq!(Trf::parse("XXC rank white1\n001    1      Ana\n").unwrap().initial_colour(), Some(Color::White));
    /// ```
    pub fn initial_colour(&self) -> Option<Color> {
        if let Some(rest) = self.record("152") {
            return match rest.trim() {
                "W" | "w" => Some(Color::White),
                "B" | "b" => Some(Color::Black),
                _ => None,
            };
        }
        let xxc = self.record("XXC")?;
        xxc.split_whitespace().find_map(|w| match w {
            "white1" => Some(Color::White),
            "black1" => Some(Color::Black),
            _ => None,
        })
    }

    /// The event's time control from TRF-26's `222` (PGN's `TimeControl`
    /// form in seconds, `40/5400+30:1800+30`, or tactus's own, `90+30`):
    /// what a round plays when its pairing says nothing else.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse("222 5400+30\n001    1      Ana\n").unwrap();
    /// assert_eq!(trf.time_control().unwrap().unwrap().to_pgn(), "5400+30");
    /// assert!(Trf::parse("222 soon\n001    1      Ana\n").unwrap().time_control().unwrap().is_err());
    /// ```
    pub fn time_control(&self) -> Option<Result<TimeControl, BadTimeControl>> {
        let rest = self.record("222")?;
        let text = rest.trim();
        Some(
            TimeControl::from_pgn(text)
                .or_else(|_| text.parse::<TimeControl>())
                .map_err(|why| BadTimeControl {
                    text: text.to_owned(),
                    why,
                }),
        )
    }

    /// The city from `022` (PGN's `Site`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("022 Madrid\n001    1      Ana\n").unwrap().city().as_deref(), Some("Madrid"));
    /// ```
    pub fn city(&self) -> Option<String> {
        Some(self.record("022")?.trim().to_owned()).filter(|t| !t.is_empty())
    }

    /// Round `round`'s date from the `132` line (its round's columns,
    /// `YY/MM/DD` or `YYYY/MM/DD`), as PGN writes a date: `2026.11.28`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let mut dates = format!("132{:88}", "");
    /// dates.push_str("26/11/27  26/11/28");
    /// let trf = Trf::parse(&format!("{dates}\n001    1      Ana\n")).unwrap();
    /// assert_eq!(trf.round_date(2).as_deref(), Some("2026.11.28"));
    /// assert_eq!(trf.round_date(3), None);
    /// ```
    pub fn round_date(&self, round: u16) -> Option<String> {
        let line = self.lines.iter().find(|l| l.text.starts_with(b"132"))?;
        let cols = super::columns(&line.text, self.utf8);
        let start = FIRST_ROUND_COLUMN + ROUND_WIDTH * usize::from(round.checked_sub(1)?);
        let field: String = cols.iter().skip(start).take(ROUND_WIDTH).collect();
        let parts: Vec<&str> = field.trim().split(['/', '.', '-']).collect();
        let [y, m, d] = parts[..] else {
            return None;
        };
        fn num(s: &str, len: usize) -> Option<&str> {
            (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then_some(s)
        }
        let year = match y.len() {
            2 => format!("20{}", num(y, 2)?),
            _ => num(y, 4)?.to_owned(),
        };
        Some(format!("{year}.{}.{}", num(m, 2)?, num(d, 2)?))
    }

    /// The text after a record's three-letter code, from its first line.
    pub(super) fn record(&self, code: &str) -> Option<String> {
        let line = self
            .lines
            .iter()
            .find(|l| l.text.starts_with(code.as_bytes()))?;
        Some(
            super::columns(&line.text, self.utf8)
                .into_iter()
                .skip(3)
                .collect(),
        )
    }
}

/// Tenths as `2.5`.
pub(super) fn tenths_text(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fuzz corpus's TRF-26 file: every record read, its points agree
    /// (a later `BBU` overrides the `162`'s `P`).
    #[test]
    fn the_trf26_records_of_the_fuzz_corpus_read() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/corpus/trf/trf26-records"
        );
        let trf = Trf::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(trf.planned_rounds(), Some(3));
        assert_eq!(trf.initial_colour(), Some(Color::White));
        assert_eq!(trf.point_system().win, 30);
        assert_eq!(trf.point_system().pairing_bye, 10);
        assert_eq!(trf.point_system().draw, 10);
        assert_eq!(
            trf.time_control().unwrap().unwrap().to_pgn(),
            "40/5400+30:1800+30"
        );
        assert_eq!(trf.round_date(2).as_deref(), Some("2026.12.02"));
        assert_eq!(trf.city().as_deref(), Some("Hall"));
        trf.check_points().unwrap();
        // Bea beats Cid in round 2: both lines' points follow.
        let after = trf
            .with_result(2, 2, ResultChar::Win)
            .unwrap()
            .with_result(2, 3, ResultChar::Loss)
            .unwrap();
        assert_eq!(after.player(2).unwrap().points_tenths, Some(30));
        assert_eq!(after.player(3).unwrap().points_tenths, Some(10));
        after.check_points().unwrap();
        // A 162 line with a code no engine reads is refused, naming it.
        let err = Trf::parse("162  X 1.0\n001    1      Ana\n").unwrap_err();
        assert!(err.to_string().contains("`X`"), "{err}");
    }
}

/// A `222` that is no time control tactus reads: its text and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("222 `{text}`: {why}")]
pub struct BadTimeControl {
    /// The record's text after its code, trimmed.
    pub text: String,
    /// Why it is not a time control.
    pub why: crate::time_control::TimeControlError,
}
