//! The tokens on a file in a temporary folder: made once and kept,
//! owner-only, each role told apart, players' codes bound to people, the
//! second blind player's per game, hand-edited files refused.

/// A table id for the tests.
fn tid(text: &str) -> TableId {
    text.parse().unwrap()
}

use super::*;
use crate::service::security::codes::grouped_code;
use std::path::Path;

/// Listed players by (start rank, name).
fn people(list: &[(u16, &str)]) -> Vec<Person> {
    list.iter()
        .map(|(rank, name)| Person {
            start_rank: *rank,
            name: (*name).to_owned(),
            fide_id: None,
        })
        .collect()
}

#[test]
fn a_player_s_code_belongs_to_the_person_not_the_rank() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.toml");
    // An older file: codes by rank alone. Bound at this start to whoever
    // the venue lists there.
    std::fs::write(
        &path,
        "[players]\n1 = \"aaaaaaaaaaaaaaaa\"\n2 = \"bbbbbbbbbbbbbbbb\"\n",
    )
    .unwrap();
    let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Ana"), (2, "Bea")])).unwrap();
    assert_eq!(t.player_of("aaaaaaaaaaaaaaaa"), Some(1));
    assert!(t.code_changes().is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("name = \"Ana\""), "{text}");
    assert!(
        text.contains("1 = \"aaaaaaaaaaaaaaaa\""),
        "the codes as before: {text}"
    );
    // The pairing program renumbers: Ana and Bea swap ranks 1 and 2.
    let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Bea"), (2, "Ana")])).unwrap();
    assert_eq!(
        t.player_of("aaaaaaaaaaaaaaaa"),
        Some(2),
        "Ana's code is Ana's"
    );
    assert_eq!(t.player_of("bbbbbbbbbbbbbbbb"), Some(1));
    assert_eq!(t.code_changes().len(), 2);
    assert!(
        t.code_changes()[0].to_string().contains("Bea"),
        "{:?}",
        t.code_changes()
    );
    // Bea drops out and Carl is given rank 1: a new code for Carl, and
    // Bea's is refused.
    let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Carl"), (2, "Ana")])).unwrap();
    assert_eq!(
        t.player_of("bbbbbbbbbbbbbbbb"),
        None,
        "a dropped player's code"
    );
    assert_eq!(
        t.departed("BBBB-BBBB-BBBB-BBBB"),
        Some((1, "Bea")),
        "named when refused"
    );
    let carl = t.player_token(1).unwrap().to_owned();
    assert_ne!(carl, "bbbbbbbbbbbbbbbb");
    assert!(matches!(
        &t.code_changes()[0],
        CodeChange::Replaced { rank: 1, name, before } if name == "Carl" && before == "Bea"
    ));
    // A FIDE id decides over the name (a spelling corrected).
    let fide = |name: &str| Person {
        start_rank: 1,
        name: name.into(),
        fide_id: Some(4_100_018),
    };
    let t = Tokens::load_or_create(&path, &[], &[fide("Carl")]).unwrap();
    let code = t.player_token(1).unwrap().to_owned();
    assert_ne!(
        code, carl,
        "bound now to the FIDE id, a new person to the file"
    );
    let t = Tokens::load_or_create(&path, &[], &[fide("Karl")]).unwrap();
    assert_eq!(t.player_token(1), Some(code.as_str()));
    assert!(t.code_changes().is_empty());
}

/// Tables with one blind player each.
fn seats(ids: &[&str]) -> Vec<Seats> {
    ids.iter()
        .map(|id| Seats::from(id.parse::<TableId>().unwrap()))
        .collect()
}

#[test]
fn tokens_are_made_once_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    let a = Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
    let t1 = a.table(&tid("1")).unwrap().clone();
    assert_eq!(t1.player.expose().len(), 32);
    assert_ne!(t1.player, t1.assistant);
    assert_ne!(t1.assistant, t1.arbiter);
    let b = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
    assert_eq!(b.table(&tid("1")), Some(&t1));
    assert!(b.table(&tid("2")).is_some());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[tables.1]") || text.contains("[tables.\"1\"]"),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[cfg(unix)]
#[test]
fn an_open_tokens_file_and_a_leftover_temporary_end_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
    assert_eq!(mode(&path), 0o600, "an existing file is fixed");
    // A leftover temporary, readable by all, and one that is a link.
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, "old").unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o644)).unwrap();
    Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
    assert_eq!(mode(&path), 0o600, "written through a leftover temporary");
    let target = dir.path().join("elsewhere");
    std::fs::write(&target, "keep").unwrap();
    std::os::unix::fs::symlink(&target, &tmp).unwrap();
    Tokens::load_or_create(&path, &seats(&["1", "2", "3"]), &[]).unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    assert_eq!(mode(&path), 0o600);
    assert!(
        Tokens::load_or_create(&path, &[], &[])
            .unwrap()
            .table(&tid("3"))
            .is_some()
    );
}

#[test]
fn the_venue_arbiter_token_is_made_once_added_to_old_files_and_is_arbiter_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    // A file written before the venue token existed keeps its tables'
    // tokens and gains a venue token.
    let old = "[tables.1]\nplayer = \"pppppppppppppppppppp\"\n\
               assistant = \"aaaaaaaaaaaaaaaaaaaa\"\narbiter = \"rrrrrrrrrrrrrrrrrrrr\"\n";
    std::fs::write(&path, old).unwrap();
    let a = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
    assert_eq!(
        a.table(&tid("1")).unwrap().player.expose(),
        "pppppppppppppppppppp"
    );
    let venue = a.venue_arbiter().expect("a venue token").to_owned();
    assert_eq!(venue.len(), 32);
    let b = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
    assert_eq!(b.venue_arbiter(), Some(venue.as_str()), "kept");
    assert!(b.is_venue_arbiter(&venue));
    assert!(!b.is_venue_arbiter(&venue[..31]));
    assert!(!b.is_venue_arbiter(b.table(&tid("1")).unwrap().arbiter.expose()));
    for id in ["1", "2"] {
        assert_eq!(
            b.role_of(&tid(id), &venue),
            Some(PersonRole::Arbiter),
            "{id}"
        );
    }
    assert_eq!(b.role_of(&tid("3"), &venue), None, "no such table");
    // A short hand-edited venue token is refused, naming it.
    let err = Tokens::parse("[venue]\narbiter = \"short\"\n").unwrap_err();
    assert!(err.to_string().contains("[venue]"), "{err}");
}

#[test]
fn roles_are_told_apart_and_wrong_tokens_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = Tokens::load_or_create(&dir.path().join("t.toml"), &seats(&["a"]), &[]).unwrap();
    let t = tokens.table(&tid("a")).unwrap().clone();
    assert_eq!(
        tokens.role_of(&tid("a"), t.player.expose()),
        Some(PersonRole::Player)
    );
    assert_eq!(
        tokens.role_of(&tid("a"), t.assistant.expose()),
        Some(PersonRole::Assistant)
    );
    assert_eq!(
        tokens.role_of(&tid("a"), t.arbiter.expose()),
        Some(PersonRole::Arbiter)
    );
    assert_eq!(tokens.role_of(&tid("a"), ""), None);
    assert_eq!(tokens.role_of(&tid("a"), &t.arbiter.expose()[..31]), None);
    assert_eq!(tokens.role_of(&tid("b"), t.arbiter.expose()), None);
    // Secrets: never in a log or a panic.
    let shown = format!("{t:?} {tokens:?}");
    for secret in [&t.player, &t.assistant, &t.arbiter] {
        assert!(!shown.contains(secret.expose()), "{shown}");
    }
}

#[test]
fn the_second_blind_players_token_belongs_to_one_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    let two = |second_blind: bool| {
        [Seats {
            id: "1".parse().unwrap(),
            second_blind,
        }]
    };
    let one = Tokens::load_or_create(&path, &two(false), &[]).unwrap();
    assert!(!one.has_second_blind(&tid("1")));
    assert_eq!(one.opponent_token(&tid("1"), 1), None);
    let both = Tokens::load_or_create(&path, &two(true), &[]).unwrap();
    let t = both.table(&tid("1")).unwrap().clone();
    assert_eq!(t.player, one.table(&tid("1")).unwrap().player, "kept");
    let g1 = both
        .opponent_token(&tid("1"), 1)
        .expect("two tactile boards");
    let g2 = both.opponent_token(&tid("1"), 2).unwrap();
    assert_eq!(normalise_code(&g1).as_deref(), Some(g1.as_str()), "a code");
    assert_ne!(g1, g2, "a token for each game");
    // As a braille reader types it from a card: capitals, dashes.
    assert!(both.opponent_at(&tid("1"), 1, &grouped_code(&g1).to_uppercase()));
    // Another journal (a rehearsal, a restored backup) numbers its
    // games from 1 again: its tokens are others.
    let reborn = Tokens::load_or_create(&path, &two(true), &[])
        .unwrap()
        .in_journal(7);
    assert!(!reborn.opponent_at(&tid("1"), 1, &g1));
    assert_ne!(reborn.opponent_token(&tid("1"), 1), Some(g1.clone()));
    for lasting in [&t.player, &t.assistant, &t.arbiter] {
        assert!(!lasting.matches(&g1));
    }
    // Each game's token in its game only, never as a lasting role.
    assert!(both.opponent_at(&tid("1"), 1, &g1));
    assert!(!both.opponent_at(&tid("1"), 2, &g1), "round 1's, in game 2");
    assert!(both.opponent_at(&tid("1"), 2, &g2));
    assert!(!both.opponent_at(&tid("1"), 1, &g2));
    assert!(!both.opponent_at(&tid("1"), 1, &g1[..15]));
    assert!(!both.opponent_at(&tid("2"), 1, &g1), "no such table");
    assert_eq!(both.role_of(&tid("1"), &g1), None);
    assert_eq!(
        both.role_of(&tid("1"), t.player.expose()),
        Some(PersonRole::Player)
    );
    // The key is a secret, never a token; the file keeps it, so a
    // restart gives the same tokens.
    let key = t.opponent_key.clone().expect("a key");
    assert!(!both.opponent_at(&tid("1"), 1, key.expose()));
    let again = Tokens::load_or_create(&path, &two(true), &[]).unwrap();
    assert_eq!(again.opponent_token(&tid("1"), 1), Some(g1.clone()));
    assert_eq!(again.opponent_token(&tid("1"), 2), Some(g2));
    // Another table's key gives other tokens.
    let other = dir.path().join("other.toml");
    let elsewhere = Tokens::load_or_create(&other, &two(true), &[]).unwrap();
    assert_ne!(elsewhere.opponent_token(&tid("1"), 1), Some(g1.clone()));
    // The table has one blind player again: no opponent's token at all.
    let back = Tokens::load_or_create(&path, &two(false), &[]).unwrap();
    assert!(!back.opponent_at(&tid("1"), 1, &g1));
    assert_eq!(back.opponent_token(&tid("1"), 1), None);
    assert_eq!(back.table(&tid("1")).unwrap().opponent_key, Some(key));
}

#[test]
fn captains_get_a_typable_token_each_kept_across_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    let mut t =
        Tokens::load_or_create(&path, &seats(&["1"]), &people(&[(1, "Ana"), (2, "Bea")])).unwrap();
    assert_eq!(t.captain_token(1), None);
    t.add_captains(&path, &[1, 7]).unwrap();
    let one = t.captain_token(1).unwrap().to_owned();
    let seven = t.captain_token(7).unwrap().to_owned();
    assert_ne!(one, seven);
    assert_eq!(one.len(), CODE_LEN);
    // As a braille reader types the card: capitals, dashes.
    assert_eq!(t.captain_of(&grouped_code(&one).to_uppercase()), Some(1));
    assert_eq!(t.captain_of(&seven), Some(7));
    assert!(t.knows(&seven));
    // A captain's token is no player's, and the reverse.
    assert_eq!(t.player_of(&seven), None);
    assert_eq!(t.captain_of(t.player_token(1).unwrap()), None);
    // The next start keeps them; the players' tokens are kept too.
    let mut again =
        Tokens::load_or_create(&path, &seats(&["1"]), &people(&[(1, "Ana"), (2, "Bea")])).unwrap();
    again.add_captains(&path, &[1, 7]).unwrap();
    assert_eq!(again.captain_token(1), Some(one.as_str()));
    assert_eq!(again.player_token(1), t.player_token(1));
    // A hand-edited file with a captain's token that is not a code.
    assert_eq!(
        Tokens::parse("[captains]\n3 = \"short\"\n").unwrap_err(),
        BadTokens::UnusableCaptain("3".into())
    );
}

#[test]
fn a_lasting_opponent_token_from_an_older_file_is_dropped_never_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    let old = "[venue]\narbiter = \"vvvvvvvvvvvvvvvvvvvv\"\n[tables.1]\n\
               player = \"pppppppppppppppppppp\"\nassistant = \"aaaaaaaaaaaaaaaaaaaa\"\n\
               arbiter = \"rrrrrrrrrrrrrrrrrrrr\"\nopponent = \"oooooooooooooooooooo\"\n";
    std::fs::write(&path, old).unwrap();
    let seats = [Seats {
        id: "1".parse().unwrap(),
        second_blind: true,
    }];
    let t = Tokens::load_or_create(&path, &seats, &[]).unwrap();
    assert_eq!(
        t.role_of(&tid("1"), "pppppppppppppppppppp"),
        Some(PersonRole::Player)
    );
    for game in 1..=3 {
        assert!(!t.opponent_at(&tid("1"), game, "oooooooooooooooooooo"));
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("oooo"), "{text}");
    assert!(text.contains("opponent_key"), "{text}");
}

#[test]
fn blank_short_or_padded_tokens_are_refused() {
    let good = "0123456789abcdef0123456789abcdef";
    let file = |player: &str| {
        format!(
            "[tables.1]\nplayer = \"{player}\"\nassistant = \"{good}a\"\narbiter = \"{good}b\"\n"
        )
    };
    let t = Tokens::parse(&file(good)).unwrap();
    assert_eq!(t.role_of(&tid("1"), good), Some(PersonRole::Player));
    assert_eq!(
        t.table_ids().map(TableId::as_str).collect::<Vec<_>>(),
        ["1"]
    );
    for bad in ["", "short", " 0123456789abcdef", "0123456789abcdef "] {
        let err = Tokens::parse(&file(bad)).unwrap_err().to_string();
        assert!(err.contains("player token"), "{bad:?}: {err}");
    }
    // A table that no id names: the file is refused, naming it.
    let err = Tokens::parse(&file(good).replace("[tables.1]", "[tables.\"a b\"]"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("a b"), "{err}");
}

#[test]
fn a_malformed_file_is_an_error_naming_it_and_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    std::fs::write(&path, "[tables.1]\nplayer = \"x\"\nwizard = \"y\"\n").unwrap();
    let err = Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("tokens.toml") && msg.contains("wizard"),
        "{msg}"
    );
    assert!(std::fs::read_to_string(&path).unwrap().contains("wizard"));
}

#[test]
fn a_table_card_s_code_reads_as_typed_and_names_its_table_and_role() {
    let dir = tempfile::tempdir().unwrap();
    let tokens =
        Tokens::load_or_create(&dir.path().join("t.toml"), &seats(&["1", "2"]), &[]).unwrap();
    let t = tokens.table(&tid("2")).unwrap().clone();
    let codes: Vec<String> = t.all().map(|(_, s)| card_code(s)).collect();
    assert_eq!(codes.len(), 3);
    assert!(codes.iter().all(|c| c.len() == CODE_LEN));
    assert_ne!(codes[0], codes[1]);
    let printed = grouped_code(&card_code(&t.assistant)).to_uppercase();
    assert_eq!(
        tokens.card_holder(&printed),
        Some((tid("2"), PersonRole::Assistant))
    );
    assert_eq!(
        tokens.card_holder(&card_code(&t.player)),
        Some((tid("2"), PersonRole::Player))
    );
    assert_eq!(tokens.card_holder(&codes[0][1..]), None);
    assert_eq!(
        tokens.card_holder(t.player.expose()),
        None,
        "the token is not its code"
    );
}

#[test]
fn a_player_s_code_reads_as_a_braille_reader_types_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.toml");
    let tokens = Tokens::load_or_create(&path, &[], &people(&[(3, "Ana"), (7, "Bea")])).unwrap();
    let code = tokens.player_token(3).unwrap().to_owned();
    assert_eq!(code.len(), CODE_LEN);
    assert_ne!(tokens.player_token(7), Some(code.as_str()));
    // As printed, in capitals (BRF), with the dashes, with i/l/o typed
    // for 1/0.
    let grouped = grouped_code(&code);
    assert_eq!(tokens.player_of(&grouped), Some(3));
    assert_eq!(tokens.player_of(&grouped.to_uppercase()), Some(3));
    let typed = code.replace('1', "l").replace('0', "O");
    assert_eq!(tokens.player_of(&typed), Some(3));
    assert_eq!(tokens.player_of(&code[1..]), None);
    assert_eq!(tokens.player_of("not a code at all!"), None);
    // Kept across starts.
    let again = Tokens::load_or_create(&path, &[], &people(&[(3, "Ana"), (7, "Bea")])).unwrap();
    assert_eq!(again.player_token(3), Some(code.as_str()));
    assert!(matches!(
        Tokens::parse("[players]\n3 = \"short\"\n"),
        Err(BadTokens::UnusablePlayer(_))
    ));
}
