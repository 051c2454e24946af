//! The peg board's build guide agrees with the firmware: the wiring drawing
//! is what `scripts/wiring_svg.py` draws from `firmware/peg-board/pins.toml`
//! (the file the firmware is built from), and the guide's pin table names
//! the same GPIOs.

use std::process::Command;

fn pins(key: &str) -> Vec<u8> {
    let text = std::fs::read_to_string("firmware/peg-board/pins.toml").unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    value[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_integer().unwrap() as u8)
        .collect()
}

#[test]
fn the_wiring_drawing_is_drawn_from_the_pin_map() {
    let out = Command::new("python3")
        .arg("scripts/wiring_svg.py")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = std::fs::read_to_string("docs/hardware/wiring.svg").unwrap();
    assert!(
        committed == String::from_utf8(out.stdout).unwrap(),
        "docs/hardware/wiring.svg is not what scripts/wiring_svg.py draws from pins.toml: \
         run `python3 scripts/wiring_svg.py > docs/hardware/wiring.svg`"
    );
}

#[test]
fn the_guides_pin_table_is_the_pin_map() {
    let guide = std::fs::read_to_string("docs/hardware.md").unwrap();
    let join = |v: Vec<u8>| v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    for (row, key) in [
        ("| rows, rank 1 to 8 |", "rows"),
        ("| columns, file a to h |", "cols"),
        ("| buttons 1 to 8 |", "buttons"),
    ] {
        let want = format!("{row} {} |", join(pins(key)));
        assert!(guide.contains(&want), "docs/hardware.md lacks {want:?}");
    }
}
