//! One move as typed or spoken back (`notation::parse_move`), on a few
//! positions (castling, en passant, promotions, ambiguous knights, Black to
//! move) and in every language: never a panic; a move read is legal, and
//! its SAN and UCI read back as the same move.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, parse_move};

const POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/4P3/2N2Q1p/PpPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/2N1N3/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/4pP2/8/1p6/4K3 b kq f3 0 1",
];

/// `Auto` and every language it tries.
const LANGS: [Lang; 9] = {
    let mut all = [Lang::Auto; 9];
    let mut i = 0;
    while i < Lang::AUTO_ORDER.len() {
        all[i + 1] = Lang::AUTO_ORDER[i];
        i += 1;
    }
    all
};

/// The positions above.
pub fn positions() -> Vec<Chess> {
    POSITIONS
        .iter()
        .map(|f| {
            match f
                .parse::<Fen>()
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            {
                Some(p) => p,
                None => panic!("bad test position {f}"),
            }
        })
        .collect()
}

pub fn check(data: &[u8]) {
    // The first byte chooses the language; the rest is the move.
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let lang = LANGS[usize::from(first) % LANGS.len()];
    for pos in positions() {
        let Ok(m) = parse_move(&pos, text, lang) else {
            continue;
        };
        assert!(pos.is_legal(m), "{text:?} read as illegal {m:?}");
        let san = San::from_move(&pos, m).to_string();
        assert_eq!(
            parse_move(&pos, &san, Lang::Of(Language::En)),
            Ok(m),
            "SAN {san}"
        );
        let uci = UciMove::from_standard(m).to_string();
        assert_eq!(parse_move(&pos, &uci, Lang::Auto), Ok(m), "UCI {uci}");
    }
}
