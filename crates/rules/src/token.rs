//! The vocabulary: every word tactus can say, as language-neutral keys.
//!
//! An announcement is a list of [`Token`]s. A voice pack maps each token's
//! [`key`](Token::key) to a recorded clip and a text, so the words themselves
//! (German by default, Appendix D.2.1) live in the pack, never in code.
//! [`Token::all`] enumerates the whole vocabulary, which is what a pack must
//! cover to be complete.

use std::fmt;

use shakmaty::{Color, File, Rank, Role};

/// Fixed words, keyed `group.name`. The table is the single source of the
/// keys: adding a row here makes every pack incomplete until it records it.
macro_rules! words {
    ($($(#[$doc:meta])* $variant:ident => $key:literal,)*) => {
        /// A fixed word or phrase (not a square, piece or number).
        ///
        /// # Examples
        ///
        /// ```
        /// use tactus_rules::token::Word;
        ///
        /// assert_eq!(Word::CastleShort.key(), "castle.short");
        /// assert_eq!(Word::from_key("word.check"), Some(Word::Check));
        /// assert!(Word::ALL.contains(&Word::Mate));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Word {
            $($(#[$doc])* $variant,)*
        }

        impl Word {
            /// Every word, in declaration order.
            ///
            /// # Examples
            ///
            /// ```
            /// use tactus_rules::token::Word;
            ///
            /// assert_eq!(Word::ALL[0], Word::CastleShort);
            /// ```
            pub const ALL: &'static [Word] = &[$(Word::$variant,)*];

            /// The pack key of this word.
            ///
            /// # Examples
            ///
            /// ```
            /// use tactus_rules::token::Word;
            ///
            /// assert_eq!(Word::EnPassant.key(), "word.en_passant");
            /// ```
            pub const fn key(self) -> &'static str {
                match self {
                    $(Word::$variant => $key,)*
                }
            }

            /// The word with this pack key, if any.
            ///
            /// # Examples
            ///
            /// ```
            /// use tactus_rules::token::Word;
            ///
            /// assert_eq!(Word::from_key("game.draw"), Some(Word::Draw));
            /// assert_eq!(Word::from_key("file.e"), None); // a token, not a word
            /// ```
            pub fn from_key(key: &str) -> Option<Word> {
                match key {
                    $($key => Some(Word::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

words! {
    // Moves (announcements.md, "Token keys").
    /// Castling kingside (O-O).
    CastleShort => "castle.short",
    /// Castling queenside (O-O-O).
    CastleLong => "castle.long",
    /// A capture, said before the target square.
    Takes => "word.takes",
    /// After a pawn capture en passant.
    EnPassant => "word.en_passant",
    /// After a move that gives check.
    Check => "word.check",
    /// After a move that mates.
    Mate => "word.mate",
    /// After a move that stalemates.
    Stalemate => "word.stalemate",
    // Clock (D.2.6.1, D.2.10.4).
    /// White, before White's time (and White as the subject of a message).
    White => "clock.white",
    /// Black, before Black's time (and Black as the subject of a message).
    Black => "clock.black",
    /// After a side word: the time that follows is time used (D.2.10.4).
    Used => "clock.used",
    /// After a side word: the time that follows is time left (a word packs
    /// record; nothing says it today).
    Remaining => "clock.remaining",
    /// One hour.
    Hour => "unit.hour",
    /// Hours, after a number other than one.
    Hours => "unit.hours",
    /// One minute.
    Minute => "unit.minute",
    /// Minutes, after a number other than one.
    Minutes => "unit.minutes",
    /// One second.
    Second => "unit.second",
    /// Seconds, after a number other than one.
    Seconds => "unit.seconds",
    /// One move, in the clock's move count.
    Move => "unit.move",
    /// Moves, after a number other than one.
    Moves => "unit.moves",
    /// "ein" before a masculine or neuter unit (ein Zug).
    OneMasculine => "num.one_m",
    /// "eine" before a feminine unit (eine Stunde, eine Minute, eine Sekunde).
    OneFeminine => "num.one_f",
    /// The clock was stopped.
    ClockPaused => "clock.paused",
    /// The clock runs again.
    ClockResumed => "clock.resumed",
    /// The arbiter changed a clock's time.
    ClockAdjusted => "clock.adjusted",
    /// A flag fell: a clock reached zero (6.8).
    FlagFell => "clock.flag_fell",
    /// Little time left (a word packs record; nothing says it today).
    LowTime => "clock.low_time",
    // Game state and end (Articles 5, 6.9, 9).
    /// The game ends: White wins.
    WhiteWins => "game.white_wins",
    /// The game ends: Black wins.
    BlackWins => "game.black_wins",
    /// The game ends drawn.
    Draw => "game.draw",
    /// After a side word: that side resigned.
    Resigns => "game.resigns",
    /// After a side word: that side offers a draw.
    DrawOffered => "game.draw_offered",
    /// A draw is claimed (9.2, 9.3; a word packs record, nothing says it
    /// today).
    DrawClaimed => "game.draw_claimed",
    /// The draw offer was declined.
    DrawDeclined => "game.draw_declined",
    /// A draw claim was found incorrect (9.5.3).
    ClaimRejected => "game.claim_rejected",
    /// By threefold repetition (9.2).
    Threefold => "game.threefold",
    /// By fivefold repetition (9.6.1).
    Fivefold => "game.fivefold",
    /// By the fifty-move rule (9.3).
    FiftyMoves => "game.fifty_moves",
    /// By the seventy-five-move rule (9.6.2).
    SeventyFiveMoves => "game.seventy_five_moves",
    /// By a dead position (5.2.2).
    DeadPosition => "game.dead_position",
    /// A move that is not legal was attempted.
    IllegalMove => "game.illegal_move",
    /// A piece was touched (4.3, D.2.2).
    Touched => "game.touched",
    /// A pawn reached the last rank: which piece?
    Promotion => "game.promotion",
    /// The game goes on after a restart.
    GameResumed => "game.resumed",
    // Board corrections and the tactile board (D.2.9, board-protocols.md).
    /// "Put": a piece must be placed, in a board correction.
    Put => "board.put",
    /// "Remove": a square must be emptied, in a board correction.
    Remove => "board.remove",
    /// "on", between the piece and the square of a placement.
    On => "board.on",
    /// "from", before a square a piece leaves (nothing says it today).
    From => "board.from",
    /// An empty square (nothing says it today).
    Empty => "board.empty",
    /// The board shows the game's position.
    BoardCorrect => "board.correct",
    /// The board differs from the game's position.
    BoardDiffers => "board.differs",
    /// A board's port opened.
    BoardConnected => "board.connected",
    /// A board's port closed or failed.
    BoardDisconnected => "board.disconnected",
    /// A board sent what could not be read (nothing says it today).
    BoardUnreadable => "board.unreadable",
}

/// One word of an announcement. Its [`key`](Token::key) names the clip and
/// text a voice pack has for it.
///
/// # Examples
///
/// ```
/// use shakmaty::{File, Rank, Role};
/// use tactus_rules::token::{Token, Word};
///
/// let nf3 = [Token::Piece(Role::Knight), Token::File(File::F), Token::Rank(Rank::Third)];
/// let keys: Vec<String> = nf3.iter().map(Token::key).collect();
/// assert_eq!(keys, ["piece.knight", "file.f", "rank.3"]);
/// assert_eq!(Token::from(Word::Check).to_string(), "word.check");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// `file.a` .. `file.h`: Anna .. Hector.
    File(File),
    /// `rank.1` .. `rank.8`: eins .. acht.
    Rank(Rank),
    /// `piece.king` .. `piece.pawn`: the piece without its colour.
    Piece(Role),
    /// `piece.white.queen` etc.: a piece with its colour, for board
    /// corrections ("put a black knight on ..."). One token per pair so that
    /// a language's agreement of adjective and noun stays in the pack.
    ColoredPiece(Color, Role),
    /// `num.0` .. `num.99`, then `num.100`, `num.200` .. `num.900`.
    Number(u16),
    /// An optional form of a number that a pack records only if its
    /// language needs it (`num.21.m` "veintiún", `num.21.f` "veintiuna",
    /// `num.100.lead` "ciento"): see [`crate::grammar`].
    NumberForm(u16, Form),
    /// A fixed word or phrase: its key is the [`Word`]'s.
    Word(Word),
}

/// The forms a number can take in some languages, keyed `num.<n>.<form>`.
///
/// # Examples
///
/// ```
/// use tactus_rules::token::{Form, Token};
///
/// assert_eq!(Token::NumberForm(21, Form::Feminine).key(), "num.21.f");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// Before a masculine unit (`m`): "veintiún minutos".
    Masculine,
    /// Before a feminine unit (`f`): "veintiuna jugadas".
    Feminine,
    /// A hundreds number followed by the rest (`lead`): "ciento tres".
    Leading,
}

impl Form {
    /// Every form.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::token::Form;
    ///
    /// assert_eq!(Form::ALL.map(Form::suffix), ["m", "f", "lead"]);
    /// ```
    pub const ALL: [Form; 3] = [Form::Masculine, Form::Feminine, Form::Leading];

    /// The key suffix: `m`, `f` or `lead`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::token::Form;
    ///
    /// assert_eq!(Form::Leading.suffix(), "lead");
    /// ```
    pub const fn suffix(self) -> &'static str {
        match self {
            Form::Masculine => "m",
            Form::Feminine => "f",
            Form::Leading => "lead",
        }
    }
}

impl Token {
    /// Whether `n` has a number token of its own (0..=99 or a whole hundred
    /// up to 900). Larger or other numbers are spoken as a hundred and a rest.
    const fn is_number(n: u16) -> bool {
        n <= 99 || (n.is_multiple_of(100) && n <= 900)
    }

    /// The tokens for a cardinal number: one token up to 99, a hundred token
    /// and the rest above. Numbers from 1000 are clamped to 999: nothing
    /// tactus counts (moves, minutes, seconds) gets there.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::token::Token;
    ///
    /// assert_eq!(Token::number(42), [Token::Number(42)]);
    /// assert_eq!(Token::number(103), [Token::Number(100), Token::Number(3)]);
    /// assert_eq!(Token::number(5000), [Token::Number(900), Token::Number(99)]);
    /// ```
    pub fn number(n: u32) -> Vec<Token> {
        let n = n.min(999) as u16;
        if Self::is_number(n) {
            vec![Token::Number(n)]
        } else {
            vec![Token::Number(n / 100 * 100), Token::Number(n % 100)]
        }
    }

    /// The pack key, e.g. `file.e`, `rank.4`, `piece.knight`, `num.23`.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, Role};
    /// use tactus_rules::token::Token;
    ///
    /// assert_eq!(Token::ColoredPiece(Color::Black, Role::Knight).key(), "piece.black.knight");
    /// assert_eq!(Token::Number(23).key(), "num.23");
    /// ```
    pub fn key(&self) -> String {
        match *self {
            Token::File(f) => format!("file.{}", f.char()),
            Token::Rank(r) => format!("rank.{}", r.char()),
            Token::Piece(role) => format!("piece.{}", role_name(role)),
            Token::ColoredPiece(color, role) => {
                format!("piece.{}.{}", super::side::name(color), role_name(role))
            }
            Token::Number(n) => format!("num.{n}"),
            Token::NumberForm(n, form) => format!("num.{n}.{}", form.suffix()),
            Token::Word(w) => w.key().to_owned(),
        }
    }

    /// The token with this pack key, if it is one. Each token has one
    /// spelling: `num.05` is none.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{File, Role};
    /// use tactus_rules::token::Token;
    ///
    /// assert_eq!(Token::from_key("file.a"), Some(Token::File(File::A)));
    /// assert_eq!(Token::from_key("piece.queen"), Some(Token::Piece(Role::Queen)));
    /// assert_eq!(Token::from_key("num.05"), None);
    /// assert_eq!(Token::from_key("num.150"), None); // said as 100 + 50
    /// ```
    pub fn from_key(key: &str) -> Option<Token> {
        if let Some(w) = Word::from_key(key) {
            return Some(Token::Word(w));
        }
        let (group, rest) = key.split_once('.')?;
        let single = |s: &str| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        };
        match group {
            "file" => File::from_char(single(rest)?).map(Token::File),
            "rank" => Rank::from_char(single(rest)?).map(Token::Rank),
            "piece" => match rest.split_once('.') {
                None => role_from_name(rest).map(Token::Piece),
                Some((color, role)) => Some(Token::ColoredPiece(
                    super::side::parse(color).ok()?,
                    role_from_name(role)?,
                )),
            },
            "num" => {
                if let Some((n, suffix)) = rest.split_once('.') {
                    let form = Form::ALL.into_iter().find(|f| f.suffix() == suffix)?;
                    return match Token::from_key(&format!("num.{n}"))? {
                        Token::Number(n) => Some(Token::NumberForm(n, form)),
                        _ => None,
                    };
                }
                // Reject "+5", "05" and the like: one spelling per key.
                if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                if rest.len() > 1 && rest.starts_with('0') {
                    return None;
                }
                let n: u16 = rest.parse().ok()?;
                Self::is_number(n).then_some(Token::Number(n))
            }
            _ => None,
        }
    }

    /// The whole vocabulary: what a complete voice pack records.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::token::{Token, Word};
    ///
    /// let all = Token::all();
    /// assert!(all.contains(&Token::Number(900)));
    /// assert!(all.contains(&Token::Word(Word::Stalemate)));
    /// // 8 files, 8 ranks, 6 pieces, 12 coloured pieces, 109 numbers, the words.
    /// assert_eq!(all.len(), 8 + 8 + 6 + 12 + 109 + Word::ALL.len());
    /// ```
    pub fn all() -> Vec<Token> {
        let mut all = Vec::with_capacity(180);
        all.extend(File::ALL.iter().map(|&f| Token::File(f)));
        all.extend(Rank::ALL.iter().map(|&r| Token::Rank(r)));
        all.extend(Role::ALL.iter().map(|&r| Token::Piece(r)));
        for color in Color::ALL {
            all.extend(Role::ALL.iter().map(|&r| Token::ColoredPiece(color, r)));
        }
        all.extend((0..=99).map(Token::Number));
        all.extend((1..=9).map(|h| Token::Number(h * 100)));
        all.extend(Word::ALL.iter().map(|&w| Token::Word(w)));
        all
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

impl From<Word> for Token {
    fn from(w: Word) -> Token {
        Token::Word(w)
    }
}

/// A piece's role in English, lower case, as the token keys write it
/// (`piece.knight`).
///
/// # Examples
///
/// ```
/// use shakmaty::Role;
/// use tactus_rules::token::role_name;
///
/// assert_eq!(role_name(Role::Knight), "knight");
/// ```
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

fn role_from_name(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| role_name(r) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_and_is_unique() {
        let all = Token::all();
        let mut keys: Vec<String> = all.iter().map(Token::key).collect();
        for (token, key) in all.iter().zip(&keys) {
            assert_eq!(Token::from_key(key), Some(*token), "{key}");
        }
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "duplicate keys");
    }

    #[test]
    fn optional_forms_round_trip_and_are_not_required() {
        let all = Token::all();
        // Every optional number form (`num.21.f` …): a pack may record any
        // of them, none is required.
        let numbers = all.iter().filter_map(|t| match *t {
            Token::Number(n) => Some(n),
            _ => None,
        });
        let optional: Vec<Token> = numbers
            .flat_map(|n| Form::ALL.map(|f| Token::NumberForm(n, f)))
            .collect();
        assert_eq!(optional.len(), 109 * 3);
        for token in optional {
            assert_eq!(Token::from_key(&token.key()), Some(token));
            assert!(!all.contains(&token));
        }
        assert_eq!(Token::NumberForm(21, Form::Feminine).key(), "num.21.f");
        assert_eq!(Token::NumberForm(100, Form::Leading).key(), "num.100.lead");
    }

    #[test]
    fn keys_match_the_spec() {
        assert_eq!(Token::File(File::E).key(), "file.e");
        assert_eq!(Token::Rank(Rank::Fourth).key(), "rank.4");
        assert_eq!(Token::Piece(Role::Knight).key(), "piece.knight");
        assert_eq!(Token::Word(Word::EnPassant).key(), "word.en_passant");
        assert_eq!(Token::Word(Word::CastleLong).key(), "castle.long");
        assert_eq!(
            Token::ColoredPiece(Color::Black, Role::Queen).key(),
            "piece.black.queen"
        );
    }

    #[test]
    fn unknown_or_oddly_spelled_keys_are_rejected() {
        for key in [
            "",
            "file.",
            "file.i",
            "file.ab",
            "rank.9",
            "piece.pope",
            "num.100x",
            "num.05",
            "num.150",
            "num.1000",
            "num.+5",
            "num.21.x",
            "num.21.",
            "num.150.m",
            "num.05.f",
            "num.21.f.m",
            "num.",
            "piece.green.king",
            "word.nope",
            "nodot",
        ] {
            assert_eq!(Token::from_key(key), None, "{key}");
        }
    }

    #[test]
    fn numbers_split_into_hundreds_and_rest() {
        assert_eq!(Token::number(0), vec![Token::Number(0)]);
        assert_eq!(Token::number(99), vec![Token::Number(99)]);
        assert_eq!(Token::number(300), vec![Token::Number(300)]);
        assert_eq!(
            Token::number(123),
            vec![Token::Number(100), Token::Number(23)]
        );
        assert_eq!(
            Token::number(5000),
            vec![Token::Number(900), Token::Number(99)]
        );
    }
}
