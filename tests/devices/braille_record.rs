//! The game record in braille: whole games compared with braille written
//! by hand from the UKAAF braille chess code (`docs/braille.md`), the words
//! read back through liblouis, and the page limits over real PGN files.

use crate::common;

use std::path::Path;
use std::process::Command;

use tactus_braille::cells;
use tactus_braille::louis;
use tactus_braille::record::{HEIGHT, Options, WIDTH, render};
use tactus_rules::language::Language;
use tactus_rules::pgn::{read_games, read_pgn};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/announcements")
            .join(name),
    )
    .unwrap()
}

#[test]
fn legals_mate_as_the_code_writes_it() {
    let record = read_pgn(&fixture("legal_mate.pgn")).unwrap();
    let doc = render(&record, &Options::default()).unwrap();
    let text = doc.unicode();
    let lines: Vec<&str> = text.lines().collect();
    // Heading, blank line, seven moves, blank line, result.
    assert_eq!(
        &lines[2..9],
        &[
            "⠂⠀⠑⠲⠀⠑⠢",
            "⠆⠀⠎⠋⠒⠀⠙⠖",
            "⠒⠀⠇⠉⠲⠀⠇⠛⠲",
            "⠲⠀⠎⠉⠒⠀⠛⠖",
            "⠢⠀⠎⠰⠑⠢⠀⠇⠰⠙⠂",
            "⠖⠀⠇⠸⠋⠶⠀⠅⠑⠶",
            "⠶⠀⠎⠙⠢⠜⠍",
        ]
    );
    assert!(lines[10].starts_with("⠂⠤⠴⠀"), "{}", lines[10]);
    // The words read back through liblouis.
    let back = |line: &str| {
        let c: Vec<u8> = line.chars().filter_map(cells::from_unicode).collect();
        louis::back_translate("en-ueb-g1.ctb", &c).unwrap()
    };
    // UEB has one apostrophe; liblouis reads it back as the typographic one.
    assert_eq!(back(lines[0]).replace('’', "'"), "Event: Legal's mate");
    assert_eq!(
        back(&lines[10].chars().skip(4).collect::<String>()),
        "White wins"
    );
}

#[test]
fn promotions_castling_rights_and_a_fen_start() {
    let record = read_pgn(&fixture("promotions.pgn")).unwrap();
    let text = render(&record, &Options::default()).unwrap().unicode();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("⠂⠀")).unwrap();
    assert_eq!(
        &lines[start..start + 4],
        &[
            // 1. b8=Q+ Kd7
            "⠂⠀⠘⠃⠦⠟⠀⠅⠙⠶",
            // 2. g8=B b1=R+
            "⠆⠀⠛⠦⠇⠀⠘⠃⠂⠗",
            // 3. Rxb1 gxh1=N
            "⠒⠀⠗⠰⠃⠂⠀⠛⠰⠓⠂⠎",
            // 4. Qb5+ Kc7
            "⠲⠀⠟⠘⠃⠢⠀⠅⠉⠶",
        ]
    );
}

#[test]
fn a_record_that_starts_with_black_marks_the_first_move() {
    let pgn = "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\
               [SetUp \"1\"]\n\n1... e5 2. Nf3 Nc6 3. Bb5 O-O-O 1/2-1/2\n";
    // Black cannot castle long there; the record stops being legal: read
    // only what is legal.
    let pgn = pgn.replace(" O-O-O", "");
    let record = read_pgn(&pgn).unwrap();
    let text = render(&record, &Options::default()).unwrap().unicode();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "⠂⠀⠤⠑⠢");
    assert_eq!(lines[1], "⠆⠀⠎⠋⠒⠀⠎⠉⠖");
    assert_eq!(lines[2], "⠒⠀⠇⠃⠢");
    assert!(lines[4].starts_with("⠂⠌⠆⠤⠂⠌⠆⠀"));
}

#[test]
fn draw_offers_and_clock_times_follow_their_move() {
    let pgn = "[White \"Anna Bell\"]\n[Black \"Ceasar Dahl\"]\n[TimeControl \"5400+30\"]\n\n\
               1. e4 {[%clk 1:30:25]} e5 {[%clk 1:30:20] (=)} 2. Nf3 {[%clk 1:29:59.5]} *\n";
    let record = read_pgn(pgn).unwrap();
    let options = Options {
        lang: Language::En,
        clock: true,
    };
    let text = render(&record, &options).unwrap().unicode();
    let first = text.lines().find(|l| l.starts_with("⠂⠀")).unwrap();
    assert!(first.starts_with("⠂⠀⠑⠲⠀"), "{first}");
    // The times and the offer are words (through liblouis), after their
    // move; a line too long for 40 cells goes on, indented, on the next.
    let all: Vec<u8> = text.chars().filter_map(cells::from_unicode).collect();
    let back = louis::back_translate("en-ueb-g1.ctb", &all).unwrap();
    for words in ["(1:30:25)", "(=)", "(1:30:20)", "(1:29:59)"] {
        assert!(back.contains(words), "{words} in {back}");
    }
    assert!(text.lines().all(|l| l.chars().count() <= 40));
    let heading: Vec<String> = text
        .lines()
        .take(3)
        .map(|l| {
            let c: Vec<u8> = l.chars().filter_map(cells::from_unicode).collect();
            louis::back_translate("en-ueb-g1.ctb", &c).unwrap()
        })
        .collect();
    assert_eq!(
        heading,
        [
            "White: Anna Bell",
            "Black: Ceasar Dahl",
            "Time control: 90+30"
        ]
    );
}

#[test]
fn german_and_spanish_words_through_their_tables() {
    let pgn = fixture("legal_mate.pgn").replace("Legal's mate", "Offene Meisterschaft");
    let record = read_pgn(&pgn).unwrap();
    for (lang, table, event) in [
        ("de", "de-g0.utb", "Turnier: Offene Meisterschaft"),
        ("es", "es-g1.ctb", "Torneo: Offene Meisterschaft"),
        ("fr", "fr-bfu-comp6.utb", "Tournoi: Offene Meisterschaft"),
    ] {
        let options = Options {
            lang: lang.parse().unwrap(),
            clock: false,
        };
        let text = render(&record, &options).unwrap().unicode();
        let first: Vec<u8> = text
            .lines()
            .next()
            .unwrap()
            .chars()
            .filter_map(cells::from_unicode)
            .collect();
        let back = louis::back_translate(table, &first).unwrap().to_lowercase();
        let (label, name) = event
            .to_lowercase()
            .split_once(": ")
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .unwrap();
        // Spanish braille's colon is dots 2-5, which liblouis reads back as
        // a 3: the label and the name are compared.
        assert!(back.starts_with(&label), "{lang}: {back}");
        assert!(back.ends_with(&name), "{lang}: {back}");
        // The notation is the code's, whatever the language.
        assert!(text.contains("⠶⠀⠎⠙⠢⠜⠍"), "{lang}");
    }
}

/// Every game of the python-chess corpus and the fixtures: pages of at most
/// 40 cells by 25 lines, BRF only in ASCII braille, a form feed between
/// pages, BRF and Unicode the same cells.
#[test]
fn pages_stay_within_the_paper() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("tests/pgn-corpus/python-chess"))
        .unwrap()
        .chain(std::fs::read_dir(root.join("tests/fixtures/announcements")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let (mut games, mut pages, mut plies) = (0, 0, 0);
    for file in files {
        for record in read_games(&std::fs::read(&file).unwrap())
            .into_iter()
            .flatten()
        {
            let options = Options {
                lang: Language::En,
                clock: true,
            };
            let doc = render(&record, &options).unwrap();
            for page in &doc.pages {
                assert!(page.len() <= HEIGHT, "{}", file.display());
                assert!(page.iter().all(|l| l.len() <= WIDTH), "{}", file.display());
            }
            let brf = doc.brf();
            assert!(
                brf.bytes()
                    .all(|b| (0x20..0x60).contains(&b) || b == b'\r' || b == b'\n' || b == 0x0C),
                "{}",
                file.display()
            );
            assert_eq!(brf.matches('\u{c}').count(), doc.pages.len() - 1);
            let from_brf: Vec<u8> = brf.chars().filter_map(cells::from_brf).collect();
            let from_unicode: Vec<u8> = doc
                .unicode()
                .chars()
                .filter_map(|c| {
                    if c == ' ' {
                        None
                    } else {
                        cells::from_unicode(c)
                    }
                })
                .collect();
            // BRF's spaces are blank cells as U+2800 is.
            assert_eq!(from_brf, from_unicode, "{}", file.display());
            games += 1;
            pages += doc.pages.len();
            plies += record.moves.len();
        }
    }
    eprintln!("{games} games, {plies} plies, {pages} pages");
    assert!(games >= 20, "{games}");
}

/// BRF's table is the one liblouis ships as `en-us-brf.dis`.
#[test]
fn brf_agrees_with_liblouis_display_table() {
    let dis = std::fs::read_to_string("/usr/share/liblouis/tables/en-us-brf.dis").unwrap();
    let mut seen = 0;
    for line in dis.lines() {
        let mut parts = line.split_whitespace();
        if parts.next() != Some("display") {
            continue;
        }
        let (Some(ch), Some(dots)) = (parts.next(), parts.next()) else {
            continue;
        };
        let ch = match ch {
            "\\s" => ' ',
            "\\\\" => '\\',
            c if c.chars().count() == 1 => c.chars().next().unwrap(),
            _ => continue,
        };
        let cell: u8 = if dots == "0" {
            0
        } else {
            dots.bytes().map(|d| 1u8 << (d - b'1')).sum()
        };
        if cell < 64 && ch.is_ascii() && !ch.is_ascii_lowercase() {
            assert_eq!(cells::to_brf(cell), ch, "dots {dots}");
            seen += 1;
        }
    }
    assert!(seen >= 60, "{seen}");
}

#[test]
fn the_command_writes_brf_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, fixture("legal_mate.pgn")).unwrap();
    let out = dir.path().join("g.brf");
    let status = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["record", "brf"])
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let brf = std::fs::read_to_string(&out).unwrap();
    let record = read_pgn(&fixture("legal_mate.pgn")).unwrap();
    assert_eq!(brf, render(&record, &Options::default()).unwrap().brf());
    // 7. Nd5# in BRF: 7 is dots 2-3-5-6 (`7`), s-d-5 (`SD5`), mate `>M`.
    assert!(brf.contains("7 SD5>M\r\n"), "{brf}");

    std::fs::write(&pgn, "1. e4 e5 2. Qxe9 *").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["record", "brf", "--unicode"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stdout.is_empty());
    assert!(String::from_utf8_lossy(&run.stderr).contains("ply 3"));
}

/// `GET /api/tables/{id}/brf` writes each table's words in its own
/// language (its voice pack's) unless `lang` says otherwise: read back
/// with that language's liblouis table.
#[test]
fn each_tables_record_in_its_own_language() {
    let dir = tempfile::tempdir().unwrap();
    let venue = dir.path().join("venue.toml");
    let mut text = String::new();
    for (id, voice) in [
        ("1", "de-appendix-d"),
        ("2", "en-appendix-d"),
        ("3", "es-apendice-d"),
    ] {
        text.push_str(&format!(
            "[[table]]\nid = \"{id}\"\nboard = \"none\"\nwhite = \"Anna\"\nblack = \"Bert\"\nvoice = \"{voice}\"\n\n"
        ));
    }
    std::fs::write(&venue, text).unwrap();
    let data = dir.path().join("data");
    let server = common::Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let addr = server.addr.clone();
    let read = |line: &str, lang: &str| {
        let c: Vec<u8> = line.chars().filter_map(cells::from_unicode).collect();
        louis::back_translate(louis::table_for(lang.parse().unwrap()), &c)
            .unwrap()
            .to_lowercase()
    };
    for (id, lang, white, unfinished) in [
        ("1", "de", "weiß", "partie nicht beendet"),
        ("2", "en", "white", "game not finished"),
        ("3", "es", "blancas", "partida no terminada"),
    ] {
        let (_player, assistant, _arbiter) = common::tokens(&data, id);
        let r = common::post(
            &addr,
            &format!("/api/tables/{id}/move"),
            &assistant,
            r#"{"move":"e4"}"#,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let r = common::get(&addr, &format!("/api/tables/{id}/brf?format=unicode"));
        assert_eq!(r.status, 200, "{}", r.body);
        let lines: Vec<&str> = r.body.lines().collect();
        // Spanish braille's colon is dots 2-5, which liblouis reads back
        // as a 3: the label and the name are compared apart.
        let first = read(lines[0], lang);
        assert!(first.starts_with(white), "{lang}: {first}");
        assert!(first.ends_with("anna"), "{lang}: {first}");
        // The notation is the code's in every language.
        assert!(lines.contains(&"⠂⠀⠑⠲"), "{lang}: {:?}", lines);
        let last = read(lines.last().unwrap(), lang);
        assert_eq!(last, unfinished, "{lang}");
    }
    // A language asked for wins over the table's.
    let r = common::get(&addr, "/api/tables/3/brf?format=unicode&lang=en");
    let first = r.body.lines().next().unwrap();
    assert_eq!(read(first, "en"), "white: anna");
}
