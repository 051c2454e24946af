//! The tokens file: never a panic; every token accepted grants its role
//! (the arbiter's always wins a tie), and nothing is granted to an empty or
//! unknown token. A file read on its own knows of no second blind player:
//! no game's opponent token is valid in it.

use tactus::service::security::access::Tokens;
use tactus::table::actions::PersonRole;
use tactus::table::id::TableId;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(tokens) = Tokens::parse(text) else {
        return;
    };
    for id in tokens.table_ids() {
        let Some(t) = tokens.table(id) else {
            panic!("table {id:?} listed but not found");
        };
        assert_eq!(
            tokens.role_of(id, t.arbiter.expose()),
            Some(PersonRole::Arbiter)
        );
        assert!(tokens.role_of(id, t.player.expose()).is_some());
        assert!(tokens.role_of(id, t.assistant.expose()).is_some());
        assert_eq!(tokens.role_of(id, ""), None);
        // Another id (when the text can be one) is granted nothing.
        if let Ok(other) = format!("{id}-").parse::<TableId>() {
            assert_eq!(tokens.role_of(&other, t.arbiter.expose()), None);
        }
        assert!(!tokens.has_second_blind(id));
        assert_eq!(tokens.opponent_token(id, 1), None);
        assert!(!tokens.opponent_at(id, 1, t.player.expose()));
    }
}
