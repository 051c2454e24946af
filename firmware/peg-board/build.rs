//! Reads `pins.toml`, checks it, and writes the pin map the firmware is
//! built with (`$OUT_DIR/pins.rs`); puts `memory.x` where the linker finds
//! it.

use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Pins {
    rows: Vec<u8>,
    cols: Vec<u8>,
    buttons: Vec<u8>,
}

/// GPIOs a board may not use: UART0 (0, 1) and the Pico's own (23 power
/// save, 24 VBUS sense, 25 the LED, 29 VSYS sense); 30 and above do not exist.
fn reserved(gpio: u8) -> Option<&'static str> {
    match gpio {
        0 | 1 => Some("UART0 (the wired serial port)"),
        23..=25 | 29 => Some("the Pico's own"),
        30.. => Some("not a GPIO of the RP2040"),
        _ => None,
    }
}

fn main() {
    println!("cargo:rerun-if-changed=pins.toml");
    println!("cargo:rerun-if-changed=memory.x");
    let text = std::fs::read_to_string("pins.toml").expect("pins.toml is missing");
    let pins: Pins = toml::from_str(&text).unwrap_or_else(|e| panic!("pins.toml: {e}"));
    assert_eq!(
        pins.rows.len(),
        8,
        "pins.toml: rows needs 8 GPIOs (ranks 1-8)"
    );
    assert_eq!(
        pins.cols.len(),
        8,
        "pins.toml: cols needs 8 GPIOs (files a-h)"
    );
    assert!(pins.buttons.len() <= 9, "pins.toml: at most 9 buttons");
    let mut seen = BTreeSet::new();
    for &g in pins.rows.iter().chain(&pins.cols).chain(&pins.buttons) {
        if let Some(why) = reserved(g) {
            panic!("pins.toml: GPIO {g} is {why}");
        }
        assert!(seen.insert(g), "pins.toml: GPIO {g} is used twice");
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(
        out.join("pins.rs"),
        format!(
            "/// GPIO of each row (index 0 = rank 1), from pins.toml.\n\
             pub const ROWS: [u8; 8] = {:?};\n\
             /// GPIO of each column (index 0 = the a-file), from pins.toml.\n\
             pub const COLS: [u8; 8] = {:?};\n\
             /// GPIO of each frame button (index 0 = button 1), from pins.toml.\n\
             pub const BUTTONS: [u8; {}] = {:?};\n",
            pins.rows,
            pins.cols,
            pins.buttons.len(),
            pins.buttons
        ),
    )
    .unwrap();
    std::fs::copy("memory.x", out.join("memory.x")).unwrap();
    println!("cargo:rustc-link-search={}", out.display());
}
