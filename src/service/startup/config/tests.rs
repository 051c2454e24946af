//! Venue files read: defaults, each table's own audio, time controls,
//! players and teams, pinned hellos, Chess960, network boards, and the
//! faults each names.

use super::*;
use tactus_board::link::Port;
use tactus_rules::variant::Chess960Start;

#[test]
fn each_table_has_its_own_audio_or_the_venues() {
    let c = Config::parse(
        "[speech]\naudio = \"wav:out\"\n\
         [[table]]\nid = \"1\"\naudio = \"device:plughw:CARD=Headset,DEV=0\"\n\
         [[table]]\nid = \"2\"\n",
    )
    .unwrap();
    let venue = &c.speech.audio;
    assert_eq!(
        c.tables[0].audio_or(venue),
        &AudioOut::Device("plughw:CARD=Headset,DEV=0".into())
    );
    assert_eq!(c.tables[1].audio_or(venue), &AudioOut::Wav("out".into()));
    assert_eq!(
        c.tables[0].audio_or(venue).to_string(),
        "device:plughw:CARD=Headset,DEV=0"
    );
    let e = Config::parse("[[table]]\nid = \"1\"\naudio = \"device:\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("device:NAME"), "{e}");
}

#[test]
fn a_bad_time_control_is_refused_when_the_file_is_read_naming_the_key() {
    let e = Config::parse("[[table]]\nid = \"1\"\ncontrol = \"90+\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("control"), "{e}");
    assert!(e.contains("90+"), "{e}");
    let c = Config::parse("[[table]]\nid = \"1\"\ncontrol = \"40/90+30, 30+30\"\n").unwrap();
    assert_eq!(c.tables[0].control, "40/90+30,30+30".parse().unwrap());
}

#[test]
fn teams_are_checked_against_the_players() {
    let venue = "[[table]]\nid = \"1\"\n\
                 [[player]]\nname = \"Ana\"\nstart_rank = 1\n\
                 [[player]]\nname = \"Bea\"\nstart_rank = 2\n\
                 [[player]]\nname = \"Cid\"\nstart_rank = 3\n";
    let ok = Config::parse(&format!(
        "{venue}[[team]]\nnumber = 4\nname = \"Lions\"\nshort = \"LIO\"\nplayers = [2, 1]\n"
    ))
    .unwrap();
    assert_eq!(ok.teams[0].players, [2, 1]);
    assert_eq!(ok.team_match, None);
    let boards = Config::parse(&format!(
        "{venue}[[team]]\nnumber = 4\nname = \"Lions\"\nplayers = [2, 1]\n[team_match]\nboards = 4\n"
    ))
    .unwrap();
    assert_eq!(boards.team_match, Some(TeamMatchConfig { boards: 4 }));
    let lone = Config::parse(&format!("{venue}[team_match]\nboards = 4\n")).unwrap_err();
    assert!(
        lone.to_string()
            .contains("[team_match] without any [[team]]"),
        "{lone}"
    );
    assert_eq!(ok.team_of(1).unwrap().number, 4);
    assert!(ok.team_of(3).is_none());
    let cases = [
        (
            "number = 0\nname = \"A\"\nplayers = [1]",
            "team numbers are 1 to 999",
        ),
        ("number = 1\nname = \" \"\nplayers = [1]", "name is empty"),
        ("number = 1\nname = \"A\"\nplayers = []", "players is empty"),
        (
            "number = 1\nname = \"A\"\nplayers = [9]",
            "players: 9 is not a [[player]] start_rank",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 2\nname = \"B\"\nplayers = [1]",
            "players: 1 is also in team 1",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 1\nname = \"B\"\nplayers = [2]",
            "number = 1 is given twice",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 2\nname = \"a\"\nplayers = [2]",
            "`a` is listed twice",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\ncaptain = 1",
            "unknown field `captain`",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\n[team_match]\nboards = 0",
            "[team_match] boards = 0 is out of range: 1 to 99",
        ),
        (
            "number = 1\nname = \"A\"\nplayers = [1]\n[team_match]\nboards = 4\ncolours = \"WB\"",
            "unknown field `colours`",
        ),
    ];
    for (team, want) in cases {
        let err = Config::parse(&format!("{venue}[[team]]\n{team}\n")).unwrap_err();
        assert!(err.to_string().contains(want), "{err} lacks {want}");
    }
}

/// Players may leave out their table (they move from board to board);
/// a name or a start rank listed twice, or a table the venue does not
/// have, is refused naming it.
#[test]
fn players_without_tables_and_players_listed_twice() {
    let venue = "[[table]]\nid = \"1\"\n";
    let ok = Config::parse(&format!(
        "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\n\
         [[player]]\nname = \"Bea\"\nstart_rank = 2\ntable = \"1\"\n"
    ))
    .unwrap();
    assert_eq!(ok.players[0].table, None);
    ok.check().unwrap();
    let twice = Config::parse(&format!(
        "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\n\
         [[player]]\nname = \"ana \"\nstart_rank = 2\n"
    ))
    .unwrap_err();
    assert!(
        twice
            .to_string()
            .contains("[[player]] `ana ` is listed twice"),
        "{twice}"
    );
    let elsewhere = Config::parse(&format!(
        "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\ntable = \"9\"\n"
    ))
    .unwrap_err();
    assert!(elsewhere.to_string().contains("`9`"), "{elsewhere}");
}

/// A pinned hello is a peg board's only, and must be one it can say.
#[test]
fn a_pinned_hello_is_for_a_peg_board() {
    let ok = Config::parse(
        "[[table]]\nid = \"1\"\nboard = \"peg:/dev/ttyACM0\"\nboard_hello = \"tactus-peg 0.1 E661\"\n",
    )
    .unwrap();
    assert_eq!(
        ok.tables[0].board_hello.as_deref(),
        Some("tactus-peg 0.1 E661")
    );
    for bad in [
        "board = \"dgt:/dev/ttyUSB0\"\nboard_hello = \"DGT\"",
        "board = \"peg:/dev/ttyACM0\"\nboard_hello = \" padded \"",
        "board = \"peg:/dev/ttyACM0\"\nboard_hello = \"\"",
        "opponent_board_hello = \"x\"",
    ] {
        let e = Config::parse(&format!("[[table]]\nid = \"1\"\n{bad}\n")).unwrap_err();
        assert!(
            e.to_string().contains("_hello pins a peg board"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn an_empty_file_is_the_embedded_defaults() {
    let c = Config::parse("").unwrap();
    assert_eq!(c, Config::default());
    assert_eq!(c.tables.len(), 1);
    assert_eq!(c.tables[0].blind, Color::Black);
    assert_eq!(c.tables[0].board, BoardSpec::Sim);
    assert_eq!(c.tables[0].control.to_string(), "90+30");
    assert_eq!(c.server.listen.to_string(), "127.0.0.1:8080");
}

#[test]
fn the_example_venue_parses() {
    let text = include_str!("../../../../config/venue.example.toml");
    let c = Config::parse(text).unwrap();
    assert!(c.tables.len() >= 3);
    assert!(
        c.tables
            .iter()
            .any(|t| matches!(t.opponent_board, BoardSpec::Dgt { .. }))
    );
    assert!(c.tables.iter().any(|t| matches!(
        &t.opponent_board,
        BoardSpec::Millennium {
            port: Port::Rfc2217 { .. },
            baud: 38400
        }
    )));
}

#[test]
fn unknown_keys_are_named() {
    for (text, key) in [
        ("[server]\nlisten = \"127.0.0.1:1\"\nlisen = 1\n", "lisen"),
        ("[[table]]\nid = \"1\"\nblnd = \"white\"\n", "blnd"),
        ("colour = 1\n", "colour"),
    ] {
        let err = Config::parse(text).unwrap_err().to_string();
        assert!(err.contains(key), "{err}");
    }
}

#[test]
fn bad_values_say_what_was_expected() {
    for (text, needle) in [
        (
            "[[table]]\nid = \"1\"\nblind = \"green\"\n",
            "white` or `black",
        ),
        ("[[table]]\nid = \"1\"\nboard = \"usb\"\n", "peg:PORT"),
        (
            "[[table]]\nid = \"1\"\nboard = \"peg:/dev/x@fast\"\n",
            "baud",
        ),
        ("[[table]]\nid = \"a b\"\n", "table id"),
        ("[[table]]\nid = \"1\"\n[[table]]\nid = \"1\"\n", "twice"),
        ("[speech]\naudio = \"loud\"\n", "wav:DIR"),
        ("[speech]\nspeed = 9.0\n", "speed"),
        ("[[table]]\nid = \"1\"\nsettle_ms = 5000\n", "settle_ms"),
        ("[speech]\nstyle = \"short\"\n", "standard"),
        ("[server]\nlisten = \"nowhere\"\n", "listen"),
        (
            "[[table]]\nid = \"1\"\nboard = \"peg:/dev/ttyUSB0\"\n[[table]]\nid = \"2\"\nboard = \"dgt:/dev/ttyUSB0\"\n",
            "two boards",
        ),
        ("[[table]\n", "table"),
        (
            "[[table]]\nid = \"1\"\nvariant = \"chess960\"\n",
            "start_position",
        ),
        (
            "[[table]]\nid = \"1\"\nvariant = \"chess960\"\nstart_position = 960\n",
            "0 to 959",
        ),
        ("[[table]]\nid = \"1\"\nstart_position = 3\n", "chess960"),
        ("[[table]]\nid = \"1\"\nvariant = \"atomic\"\n", "chess960"),
    ] {
        let err = Config::parse(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn a_chess960_table_names_its_start_position() {
    let c = Config::parse("[[table]]\nid = \"1\"\nvariant = \"chess960\"\nstart_position = 0\n")
        .unwrap();
    assert_eq!(c.tables[0].variant, Variant::Chess960);
    assert_eq!(c.tables[0].start_position, Some(0));
    // Read into the table's start: the position is the number's.
    assert_eq!(
        c.tables[0].start,
        Start::Chess960(Chess960Start::new(0).unwrap())
    );
    assert_eq!(c.tables[0].start.variant(), Variant::Chess960);
}

#[test]
fn bad_network_boards_name_the_key_and_the_fault() {
    for (board, needle) in [
        ("peg:tcp://pi", "tcp://HOST:PORT"),
        ("peg:tcp://pi:0", "tcp://HOST:PORT"),
        ("dgt:rfc2217://:3000", "rfc2217://HOST:PORT"),
        ("dgt:tcp://pi:3000@9600", "far end sets the speed"),
        ("dgt:telnet://pi:3000", "unknown scheme"),
        ("dgt:rfc2217://pi:3000@x", "baud"),
    ] {
        let text = format!("[[table]]\nid = \"1\"\nopponent_board = \"{board}\"\n");
        let err = Config::parse(&text).unwrap_err().to_string();
        assert!(
            err.contains(needle) && err.contains("opponent_board"),
            "{board}: {err}"
        );
    }
    let two = "[[table]]\nid = \"1\"\nboard = \"peg:tcp://pi:3000\"\n\
               [[table]]\nid = \"2\"\nopponent_board = \"dgt:tcp://pi:3000\"\n";
    let err = Config::parse(two).unwrap_err().to_string();
    assert!(
        err.contains("two boards") && err.contains("opponent_board"),
        "{err}"
    );
}
