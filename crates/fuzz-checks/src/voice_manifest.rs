//! A voice pack's `voice.toml`: never a panic; every token key the
//! vocabulary knows names its token back exactly.

use tactus_rules::token::Token;
use tactus_speech::voice_pack::Manifest;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(manifest) = Manifest::parse(text) else {
        return;
    };
    for key in manifest.tokens.keys() {
        if let Some(token) = Token::from_key(key) {
            assert_eq!(&token.key(), key);
        }
    }
}
