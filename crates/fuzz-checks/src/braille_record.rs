//! The braille record: never a panic, on any bytes read as PGN; every game
//! read is written on pages of at most 40 cells by 25 lines, its BRF only
//! ASCII braille with form feeds between pages, its Unicode only braille
//! cells, and both the same cells.

use tactus_braille::cells;
use tactus_braille::record::{HEIGHT, Options, WIDTH, render};
use tactus_rules::language::Language;
use tactus_rules::pgn::read_games;

pub fn check(data: &[u8]) {
    for record in read_games(data).into_iter().flatten() {
        // The three languages of the voice packs tactus ships.
        for (lang, clock) in [
            (Language::En, true),
            (Language::De, false),
            (Language::Es, false),
        ] {
            let options = Options { lang, clock };
            let doc = match render(&record, &options) {
                Ok(d) => d,
                Err(e) => panic!("{data:?} was read but not written in braille: {e}"),
            };
            for page in &doc.pages {
                assert!(page.len() <= HEIGHT, "a page of {} lines", page.len());
                assert!(page.iter().all(|l| l.len() <= WIDTH), "a line over {WIDTH}");
            }
            let brf = doc.brf();
            assert!(
                brf.bytes()
                    .all(|b| (0x20..0x60).contains(&b) || matches!(b, b'\r' | b'\n' | 0x0C)),
                "{brf:?}"
            );
            assert_eq!(brf.matches('\u{c}').count(), doc.pages.len() - 1);
            let unicode = doc.unicode();
            assert!(
                unicode
                    .chars()
                    .all(|c| cells::from_unicode(c).is_some() || matches!(c, '\n' | '\u{c}'))
            );
            let a: Vec<u8> = brf.chars().filter_map(cells::from_brf).collect();
            let b: Vec<u8> = unicode.chars().filter_map(cells::from_unicode).collect();
            assert_eq!(a, b);
        }
    }
}
