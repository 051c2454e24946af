//! Whole scoresheets as people write them (`docs/ruling.md`): every entry
//! read in turn from the start position (see [`super::notation`] for one
//! entry), in one language or, with [`Lang::Auto`], the language under which
//! the sheet reads furthest as legal moves; reading stops at the first entry
//! that is not one legal move, with its ply, text and reason.

use serde::{Serialize, Serializer};
use shakmaty::{Chess, Move, Outcome, Position};

use super::language::Language;
use super::notation::{Item, RawEntry, match_core, tokenize};
use super::notation::{Lang, StopReason};

/// The entry where reading a sheet stopped.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// // Both White knights can go to b5.
/// let stop = read_sheet(&Chess::default(), "1. Nf3 a6 2. Nc3 a5 3. Nd4 h6 4. Nb5", Lang::Of(Language::En))
///     .stop
///     .unwrap();
/// assert_eq!((stop.ply, stop.text.as_str()), (7, "Nb5"));
/// assert!(stop.candidates.contains(&"Ncb5".to_string()));
/// assert!(stop.candidates.contains(&"Ndb5".to_string()));
/// assert_eq!(serde_json::to_value(&stop).unwrap()["reason"], "ambiguous");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// Ply number of the entry, from 1 at the start position.
    pub ply: usize,
    /// The entry as written (with its marks).
    pub text: String,
    /// Why it is not one legal move.
    #[serde(rename = "reason", serialize_with = "ser_reason")]
    pub reason: StopReason,
    /// The legal moves that fit an ambiguous entry, in SAN (empty otherwise).
    pub candidates: Vec<String>,
}

fn ser_reason<S: Serializer>(r: &StopReason, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.code())
}

/// A sheet read against the rules.
///
/// # Examples
///
/// ```
/// use shakmaty::{Chess, Color, KnownOutcome, Outcome};
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// let sheet = read_sheet(&Chess::default(), "1. e4 e5 2. Dh5 Sc6 (=) 3. Lc4 Sf6 4. Dxf7# 1-0", Lang::Auto);
/// assert_eq!(sheet.lang, Lang::Of(Language::De));
/// assert_eq!(sheet.moves.len(), 7);
/// assert_eq!(sheet.entries[3], "Sc6 (=)");
/// assert_eq!(sheet.draw_offers, [4]);
/// assert_eq!(sheet.result, Some(Outcome::Known(KnownOutcome::Decisive { winner: Color::White })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The language the sheet was read in (never [`Lang::Auto`]).
    pub lang: Lang,
    /// The legal moves read, from the start position.
    pub moves: Vec<Move>,
    /// The text of each entry read, parallel to `moves`.
    pub entries: Vec<String>,
    /// Plies (from 1) whose entry carries the draw-offer mark `(=)`.
    pub draw_offers: Vec<usize>,
    /// The first entry that is not one legal move, if any.
    pub stop: Option<Stop>,
    /// The result written at the end, if any.
    pub result: Option<Outcome>,
}

impl Sheet {
    /// Whether every entry was read as a legal move.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Chess;
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    /// use tactus_rules::sheet::read_sheet;
    ///
    /// assert!(read_sheet(&Chess::default(), "1. d4 d5", Lang::Of(Language::En)).complete());
    /// assert!(!read_sheet(&Chess::default(), "1. d4 d5 2. Qd9", Lang::Of(Language::En)).complete());
    /// ```
    pub fn complete(&self) -> bool {
        self.stop.is_none()
    }

    /// The entry text at ply `ply` (from 1): a read entry, the stopping
    /// entry, or `None` past the sheet's end.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Chess;
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    /// use tactus_rules::sheet::read_sheet;
    ///
    /// let sheet = read_sheet(&Chess::default(), "1. d4 d5 2. Qd9", Lang::Of(Language::En));
    /// assert_eq!(sheet.entry_at(2), Some("d5"));
    /// assert_eq!(sheet.entry_at(3), Some("Qd9"));
    /// assert_eq!((sheet.entry_at(0), sheet.entry_at(4)), (None, None));
    /// ```
    pub fn entry_at(&self, ply: usize) -> Option<&str> {
        let i = ply.checked_sub(1)?;
        if let Some(text) = self.entries.get(i) {
            return Some(text);
        }
        self.stop
            .as_ref()
            .filter(|s| s.ply == ply)
            .map(|s| s.text.as_str())
    }
}

/// One language's reading of a sheet while it is under way.
struct Reading {
    langs: Vec<Lang>,
    pos: Chess,
    moves: Vec<Move>,
}

/// Reads a whole sheet from `start`. With [`Lang::Auto`] the sheet is read
/// in every language of [`Lang::AUTO_ORDER`] and the one reading furthest
/// wins (ties: the earlier in that order). Languages that read an entry as
/// the same move share one position, so auto costs little more than one
/// reading.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// // French letters: F for the bishop (fou), C for the knight (cavalier).
/// let sheet = read_sheet(&Chess::default(), "1. e4 e5 2. Cf3 Cc6 3. Fb5", Lang::Auto);
/// assert_eq!(sheet.lang, Lang::Of(Language::Fr));
/// assert!(sheet.complete());
/// ```
pub fn read_sheet(start: &Chess, text: &str, lang: Lang) -> Sheet {
    let items = tokenize(text);
    let mut readings = Readings::new(start, lang);
    let mut entries: Vec<&RawEntry> = Vec::new();
    let mut result = None;

    for item in &items {
        let entry = match item {
            Item::Result(outcome, _) if result.is_none() => {
                result = Some(*outcome);
                continue;
            }
            Item::Entry(e) if result.is_none() => e,
            Item::Entry(RawEntry { text, .. }) | Item::Result(_, text) => {
                // Anything after the result: the sheet is not what it seems.
                readings.stop_all(entries.len() + 1, text);
                break;
            }
        };
        let ply = entries.len() + 1;
        entries.push(entry);
        readings.read_entry(ply, entry);
        if readings.live.is_empty() {
            break;
        }
    }

    let Ended { lang, moves, stop } = readings.furthest(lang);
    let n = moves.len();
    Sheet {
        lang,
        entries: entries.iter().take(n).map(|e| e.text.clone()).collect(),
        draw_offers: entries
            .iter()
            .take(n)
            .enumerate()
            .filter(|(_, e)| e.draw_offer)
            .map(|(i, _)| i + 1)
            .collect(),
        moves,
        stop,
        result,
    }
}

/// How one language's reading ended.
struct Ended {
    lang: Lang,
    /// The moves it read.
    moves: Vec<Move>,
    /// Where it stopped (`None`: it read every entry).
    stop: Option<Stop>,
}

/// The readings of a sheet: those still under way and those ended.
struct Readings {
    live: Vec<Reading>,
    ended: Vec<Ended>,
}

impl Readings {
    /// One reading from `start` in `lang`'s languages, none ended.
    fn new(start: &Chess, lang: Lang) -> Readings {
        let langs: Vec<Lang> = match lang {
            Lang::Auto => Lang::AUTO_ORDER.to_vec(),
            one => vec![one],
        };
        Readings {
            live: vec![Reading {
                langs,
                pos: start.clone(),
                moves: Vec::new(),
            }],
            ended: Vec::new(),
        }
    }

    /// Ends every live reading at `ply`, whose entry `text` is unreadable.
    fn stop_all(&mut self, ply: usize, text: &str) {
        for r in self.live.drain(..) {
            for l in r.langs {
                let s = stop(ply, text, StopReason::Unreadable);
                self.ended.push(Ended {
                    lang: l,
                    moves: r.moves.clone(),
                    stop: Some(s),
                });
            }
        }
    }

    /// Reads the entry at `ply` in every live reading: languages that read
    /// it as the same move go on together, those that cannot read it end.
    fn read_entry(&mut self, ply: usize, entry: &RawEntry) {
        let mut next: Vec<Reading> = Vec::with_capacity(self.live.len());
        for reading in std::mem::take(&mut self.live) {
            let by_move = self.moves_read(&reading, ply, entry);
            let Reading { pos, moves, .. } = reading;
            split(pos, moves, by_move, &mut next);
        }
        self.live = next;
    }

    /// The moves the languages of `reading` read the entry as, each with
    /// its languages; a language reading no legal move ends there.
    fn moves_read(
        &mut self,
        reading: &Reading,
        ply: usize,
        entry: &RawEntry,
    ) -> Vec<(Move, Vec<Lang>)> {
        let Reading { langs, pos, moves } = reading;
        let legal = pos.legal_moves();
        let mut by_move: Vec<(Move, Vec<Lang>)> = Vec::new();
        for &l in langs {
            match match_core(pos, &legal, &entry.core, l) {
                Ok(m) => match by_move.iter_mut().find(|(bm, _)| *bm == m) {
                    Some((_, ls)) => ls.push(l),
                    None => by_move.push((m, vec![l])),
                },
                Err(reason) => {
                    let candidates = match &reason {
                        StopReason::Ambiguous(c) => c.clone(),
                        _ => Vec::new(),
                    };
                    let stop = Stop {
                        ply,
                        text: entry.text.clone(),
                        reason,
                        candidates,
                    };
                    self.ended.push(Ended {
                        lang: l,
                        moves: moves.clone(),
                        stop: Some(stop),
                    });
                }
            }
        }
        by_move
    }

    /// The reading that went furthest (then: read everything, then: the
    /// earlier in [`Lang::AUTO_ORDER`]); an empty one in `lang` (English
    /// for auto) if there is none.
    fn furthest(mut self, lang: Lang) -> Ended {
        for r in self.live {
            for l in r.langs {
                self.ended.push(Ended {
                    lang: l,
                    moves: r.moves.clone(),
                    stop: None,
                });
            }
        }
        let rank = |l: Lang| Lang::AUTO_ORDER.iter().position(|&x| x == l);
        self.ended.sort_by(|a, b| {
            b.moves
                .len()
                .cmp(&a.moves.len())
                .then_with(|| a.stop.is_some().cmp(&b.stop.is_some()))
                .then_with(|| rank(a.lang).cmp(&rank(b.lang)))
        });
        self.ended.into_iter().next().unwrap_or(Ended {
            lang: match lang {
                Lang::Auto => Lang::Of(Language::En),
                l => l,
            },
            moves: Vec::new(),
            stop: None,
        })
    }
}

/// Plays each move read from `pos` into a reading of its languages in
/// `next`.
fn split(pos: Chess, moves: Vec<Move>, by_move: Vec<(Move, Vec<Lang>)>, next: &mut Vec<Reading>) {
    // The last reading takes the position and moves over; only a
    // split (languages reading different moves) copies them.
    let mut base = Some((pos, moves));
    let n = by_move.len();
    for (i, (m, ls)) in by_move.into_iter().enumerate() {
        let taken = if i + 1 == n {
            base.take()
        } else {
            base.clone()
        };
        let Some((mut pos, mut moves)) = taken else {
            continue;
        };
        pos.play_unchecked(m);
        moves.push(m);
        next.push(Reading {
            langs: ls,
            pos,
            moves,
        });
    }
}

fn stop(ply: usize, text: &str, reason: StopReason) -> Stop {
    Stop {
        ply,
        text: text.to_string(),
        reason,
        candidates: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{MoveError, parse_move, parse_move_preferring};
    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn san(p: &Chess, text: &str, lang: Lang) -> String {
        let m = parse_move(p, text, lang).unwrap_or_else(|e| panic!("{text}: {e}"));
        San::from_move(p, m).to_string()
    }

    fn after(moves: &str) -> Chess {
        let sheet = read_sheet(&Chess::default(), moves, Lang::Of(Language::En));
        assert!(sheet.complete(), "{:?}", sheet.stop);
        let mut p = Chess::default();
        for m in sheet.moves {
            p.play_unchecked(m);
        }
        p
    }

    #[test]
    fn every_language_names_the_knight_and_bishop() {
        let p = after("e4 e5");
        for (lang, knight, bishop) in [
            (Lang::Of(Language::En), "Nf3", "Bc4"),
            (Lang::Of(Language::De), "Sf3", "Lc4"),
            (Lang::Of(Language::Es), "Cf3", "Ac4"),
            (Lang::Of(Language::Fr), "Cf3", "Fc4"),
            (Lang::Of(Language::Nl), "Pf3", "Lc4"),
            (Lang::Of(Language::Pt), "Cf3", "Bc4"),
            (Lang::Of(Language::Pl), "Sf3", "Gc4"),
            (Lang::Of(Language::Cs), "Jf3", "Sc4"),
        ] {
            assert_eq!(san(&p, knight, lang), "Nf3", "{lang}");
            assert_eq!(san(&p, bishop, lang), "Bc4", "{lang}");
        }
        for fig in ["♘f3", "♞f3", "♘g1-f3"] {
            assert_eq!(san(&p, fig, Lang::Of(Language::De)), "Nf3");
        }
    }

    #[test]
    fn queen_rook_and_king_letters() {
        let p = pos("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1");
        for (lang, k, q, r) in [
            (Lang::Of(Language::En), "Kf2", "Qd4", "Ra7"),
            (Lang::Of(Language::De), "Kf2", "Dd4", "Ta7"),
            (Lang::Of(Language::Es), "Rf2", "Dd4", "Ta7"),
            (Lang::Of(Language::Fr), "Rf2", "Dd4", "Ta7"),
            (Lang::Of(Language::Nl), "Kf2", "Dd4", "Ta7"),
            (Lang::Of(Language::Pl), "Kf2", "Hd4", "Wa7"),
            (Lang::Of(Language::Cs), "Kf2", "Dd4", "Va7"),
        ] {
            assert_eq!(san(&p, k, lang), "Kf2", "{lang}");
            assert_eq!(san(&p, q, lang), "Qd4", "{lang}");
            assert_eq!(san(&p, r, lang), "Ra7", "{lang}");
        }
        assert_eq!(san(&p, "♔f2", Lang::Auto), "Kf2");
        assert_eq!(san(&p, "♕d1-d4", Lang::Auto), "Qd4");
        assert_eq!(san(&p, "♜a1a7", Lang::Auto), "Ra7");
    }

    #[test]
    fn long_algebraic_and_capture_marks() {
        let p = after("e4 d5");
        for text in [
            "exd5", "e4xd5", "e4:d5", "ed5", "e:d5", "exd", "ed", "e4d5", "e4×d5", "Pe4xd5", "ed5:",
        ] {
            assert_eq!(san(&p, text, Lang::Of(Language::En)), "exd5", "{text}");
        }
        for text in ["e2e4", "e2-e4"] {
            assert_eq!(
                san(&Chess::default(), text, Lang::Of(Language::En)),
                "e4",
                "{text}"
            );
        }
        for (text, lang) in [
            ("Ng1-f3", Lang::Of(Language::En)),
            ("Cg1f3", Lang::Of(Language::Es)),
            ("g1f3", Lang::Of(Language::En)),
            ("Sg1:f3", Lang::Of(Language::De)),
        ] {
            assert_eq!(san(&Chess::default(), text, lang), "Nf3", "{text}");
        }
    }

    #[test]
    fn castling_in_letters_and_digits() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "o-o", "O-O+", "Ke1-g1", "e1g1", "Kg1"] {
            assert_eq!(san(&p, text, Lang::Of(Language::En)), "O-O", "{text}");
        }
        for text in ["O-O-O", "0-0-0", "0-0-0!"] {
            assert_eq!(san(&p, text, Lang::Of(Language::Es)), "O-O-O", "{text}");
        }
    }

    #[test]
    fn en_passant_marks() {
        let p = after("e4 a6 e5 d5");
        for text in [
            "exd6",
            "exd6 e.p.",
            "exd6e.p.",
            "exd6 ep",
            "exd6 a.p.",
            "e5xd6",
            "e5:d6 e.p.",
        ] {
            assert_eq!(san(&p, text, Lang::Of(Language::De)), "exd6", "{text}");
        }
    }

    #[test]
    fn promotions_in_every_form_and_language() {
        let p = pos("3r3k/2P5/8/8/8/8/8/4K3 w - - 0 1");
        for (text, lang, want) in [
            ("c8=Q", Lang::Of(Language::En), "c8=Q"),
            ("c8Q", Lang::Of(Language::En), "c8=Q"),
            ("c8/Q", Lang::Of(Language::En), "c8=Q"),
            ("c8(Q)", Lang::Of(Language::En), "c8=Q"),
            ("c7c8q", Lang::Of(Language::En), "c8=Q"),
            ("c8=D", Lang::Of(Language::De), "c8=Q"),
            ("c8S", Lang::Of(Language::De), "c8=N"),
            ("c8(P)", Lang::Of(Language::Nl), "c8=N"),
            ("c8=C", Lang::Of(Language::Fr), "c8=N"),
            ("c8=F", Lang::Of(Language::Fr), "c8=B"),
            ("c8=A", Lang::Of(Language::Es), "c8=B"),
            ("c8=♖", Lang::Of(Language::En), "c8=R"),
            ("cxd8=T", Lang::Of(Language::De), "cxd8=R+"),
            ("c7:d8D+", Lang::Of(Language::De), "cxd8=Q+"),
        ] {
            let m = parse_move(&p, text, lang).unwrap_or_else(|e| panic!("{text}: {e}"));
            let plus = shakmaty::san::SanPlus::from_move(p.clone(), m).to_string();
            assert_eq!(plus, want, "{text} in {lang}");
        }
        // No piece written: four promotions fit.
        match parse_move(&p, "c8", Lang::Of(Language::En)) {
            Err(MoveError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, ["c8=Q", "c8=R", "c8=B", "c8=N"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_move(&p, "c8=P", Lang::Of(Language::En)),
            Err(MoveError::Illegal(_))
        ));
    }

    #[test]
    fn marks_numbers_and_draw_offers() {
        let sheet = read_sheet(
            &Chess::default(),
            "1.e4! e5?! 2) Nf3 (=) 2... Nc6 3. Bb5+? a6!! 4.Ba4†  Nf6‡ 5. O-O(=) ... Be7 1/2-1/2",
            Lang::Auto,
        );
        assert!(sheet.complete(), "{:?}", sheet.stop);
        assert_eq!(sheet.moves.len(), 10);
        assert_eq!(sheet.draw_offers, [3, 9]);
        assert_eq!(sheet.entries.get(2).map(String::as_str), Some("Nf3 (=)"));
        assert_eq!(
            sheet.result,
            Some(Outcome::Known(shakmaty::KnownOutcome::Draw))
        );
        for result in ["1-0", "0-1", "½-½", "*", "1:0"] {
            let s = read_sheet(
                &Chess::default(),
                &format!("1. e4 {result}"),
                Lang::Of(Language::En),
            );
            assert!(s.result.is_some() && s.complete(), "{result}");
        }
    }

    #[test]
    fn ambiguous_entries_list_the_candidates() {
        let p = pos("4k3/8/8/8/8/8/8/N3K1N1 w - - 0 1");
        let sheet = read_sheet(&p, "1. Nf3", Lang::Of(Language::En));
        assert!(sheet.complete());
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        let sheet = read_sheet(&p, "1. Nd2", Lang::Of(Language::En));
        let stop = sheet.stop.unwrap();
        assert_eq!((stop.ply, stop.text.as_str()), (1, "Nd2"));
        assert_eq!(stop.reason.code(), "ambiguous");
        assert_eq!(stop.candidates, ["Nbd2", "Nfd2"]);
        assert_eq!(san(&p, "Nbd2", Lang::Of(Language::En)), "Nbd2");
        assert_eq!(san(&p, "Nb1-d2", Lang::Of(Language::En)), "Nbd2");
        assert!(matches!(
            parse_move(&p, "N1d2", Lang::Of(Language::En)),
            Err(MoveError::Ambiguous { .. })
        ));
    }

    #[test]
    fn illegal_and_unreadable_entries_stop_the_sheet() {
        let sheet = read_sheet(
            &Chess::default(),
            "1. e4 e5 2. Ke3 Nc6",
            Lang::Of(Language::En),
        );
        assert_eq!(sheet.moves.len(), 2);
        let stop = sheet.stop.unwrap();
        assert_eq!(
            (stop.ply, stop.text.as_str(), stop.reason),
            (3, "Ke3", StopReason::Illegal)
        );
        for bad in ["Qd9", "Zf3", "e4e", "xx", "Nf3-", "e2--e4", "(Q)"] {
            let sheet = read_sheet(&Chess::default(), bad, Lang::Of(Language::En));
            let stop = sheet.stop.unwrap_or_else(|| panic!("{bad} read"));
            assert_eq!(stop.reason, StopReason::Unreadable, "{bad}");
        }
        let sheet = read_sheet(
            &Chess::default(),
            "1. e4 e5 1-0 2. Nf3",
            Lang::Of(Language::En),
        );
        assert_eq!(
            sheet.stop.map(|s| (s.ply, s.text)),
            Some((3, "Nf3".to_string()))
        );
        assert!(matches!(
            parse_move(&Chess::default(), "e4 e5", Lang::Of(Language::En)),
            Err(MoveError::Unreadable(_))
        ));
        assert!(matches!(
            parse_move(&Chess::default(), "", Lang::Of(Language::En)),
            Err(MoveError::Unreadable(_))
        ));
    }

    #[test]
    fn auto_picks_the_language_that_reads_furthest() {
        let start = Chess::default();
        // `R` is a rook in English and a king in Spanish.
        let es = read_sheet(&start, "1. e4 e5 2. Re2 Cc6 3. Rf3 Ac5", Lang::Auto);
        assert_eq!(es.lang, Lang::Of(Language::Es));
        assert!(es.complete());
        let de = read_sheet(
            &start,
            "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. O-O Le7",
            Lang::Auto,
        );
        assert_eq!((de.lang, de.moves.len()), (Lang::Of(Language::De), 10));
        let nl = read_sheet(&start, "1. e4 e5 2. Pf3 Pc6 3. Lb5", Lang::Auto);
        assert_eq!(nl.lang, Lang::Of(Language::Nl));
        // Pawn moves only: every language reads it; English wins the tie.
        let tie = read_sheet(&start, "1. e4 e5", Lang::Auto);
        assert_eq!(tie.lang, Lang::Of(Language::En));
        // A single move read differently by two languages is ambiguous.
        let p = after("e4 e5 Nf3 Nc6 Bc4 Nf6");
        let m = parse_move(&p, "Rf1", Lang::Auto);
        assert!(matches!(m, Err(MoveError::Ambiguous { .. })), "{m:?}");
    }

    #[test]
    fn the_page_language_settles_what_several_languages_read_differently() {
        // Rd1: the rook from a1 in English, the king from e1 in Spanish.
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        let san = |m: Result<Move, MoveError>| San::from_move(&p, m.unwrap()).to_string();
        assert!(matches!(
            parse_move(&p, "Rd1", Lang::Auto),
            Err(MoveError::Ambiguous { .. })
        ));
        assert_eq!(
            san(parse_move_preferring(
                &p,
                "Rd1",
                Lang::Auto,
                Some(Language::En)
            )),
            "Rd1"
        );
        assert_eq!(
            san(parse_move_preferring(
                &p,
                "Rd1",
                Lang::Auto,
                Some(Language::Es)
            )),
            "Kd1"
        );
        // German reads no R: still ambiguous, refused.
        assert!(matches!(
            parse_move_preferring(&p, "Rd1", Lang::Auto, Some(Language::De)),
            Err(MoveError::Ambiguous { .. })
        ));
        // An explicit language is never overridden by the page's.
        assert_eq!(
            san(parse_move_preferring(
                &p,
                "Rd1",
                Lang::Of(Language::Es),
                Some(Language::En)
            )),
            "Kd1"
        );
        // What reads one way only is unaffected.
        assert_eq!(
            san(parse_move_preferring(
                &p,
                "Kd1",
                Lang::Auto,
                Some(Language::Es)
            )),
            "Kd1"
        );
    }

    #[test]
    fn sheets_read_from_another_start() {
        let p = pos("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
        let sheet = read_sheet(&p, "40... Kd7 41. e4 Kd6", Lang::Of(Language::En));
        assert!(sheet.complete(), "{:?}", sheet.stop);
        let mut end = p.clone();
        for m in &sheet.moves {
            end.play_unchecked(*m);
        }
        assert_eq!(
            Fen::from_position(&end, EnPassantMode::Legal).to_string(),
            "8/8/3k4/8/4P3/8/8/4K3 w - - 1 42"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Any text, and text made of the notation's own characters: the
        /// reader never panics and reads only legal moves.
        #[test]
        fn reading_never_panics(
            any_text in "\\PC{0,60}",
            notation in "[KQRBNDTLSACFPkqrbnx:=/()+#!?.0-9a-hOo \\-♔♕♖♗♘♞†‡½*]{0,80}",
        ) {
            for text in [&any_text, &notation] {
                for lang in [Lang::Auto, Lang::Of(Language::En), Lang::Of(Language::De), Lang::Of(Language::Nl)] {
                    let sheet = read_sheet(&Chess::default(), text, lang);
                    let mut p = Chess::default();
                    for &m in &sheet.moves {
                        proptest::prop_assert!(p.is_legal(m));
                        p.play_unchecked(m);
                    }
                    let _ = parse_move(&p, text, lang);
                }
            }
        }
    }
}
