//! What a language changes in counted words ("eine Stunde", "un minuto",
//! "veintiuna jugadas", "ciento tres"), as data a voice pack gives.
//!
//! The clock announcement counts hours, minutes, seconds and moves. Which
//! word says "one" before a unit, and whether a number changes its form
//! before a unit, depends on the language: German says "eine Stunde" but
//! "ein Zug"; Spanish "una hora" but "un minuto", "treinta y un segundos"
//! but "cuarenta y una jugadas", and "cien" alone but "ciento tres". A pack
//! states the gender of each unit (`[grammar]` in its `voice.toml`) and
//! records the number forms its language needs (`num.21.f`, `num.100.lead`,
//! [`Form`]); a pack that records none says every number one way. No word
//! and no language is named here.

use std::collections::HashSet;

use serde::Deserialize;

use super::token::{Form, Token, Word};

/// A unit's grammatical gender, as far as the words before it care.
///
/// # Examples
///
/// ```
/// use tactus_rules::grammar::Gender;
///
/// let g: Gender = serde_json::from_str(r#""f""#).unwrap();
/// assert_eq!(g, Gender::Feminine);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Gender {
    /// `m`: "one" is `num.one_m`, numbers take their `.m` form.
    #[serde(rename = "m")]
    Masculine,
    /// `f`: "one" is `num.one_f`, numbers take their `.f` form.
    #[serde(rename = "f")]
    Feminine,
}

/// What the clock counts.
///
/// # Examples
///
/// ```
/// use tactus_rules::grammar::{Grammar, Unit};
///
/// let keys: Vec<String> = Grammar::default().count(2, Unit::Hour).iter().map(|t| t.key()).collect();
/// assert_eq!(keys, ["num.2", "unit.hours"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Hours of time.
    Hour,
    /// Minutes of time.
    Minute,
    /// Seconds of time.
    Second,
    /// Moves made, in the clock's move count.
    Move,
}

impl Unit {
    /// The unit's words for one and for several.
    fn words(self) -> (Word, Word) {
        match self {
            Unit::Hour => (Word::Hour, Word::Hours),
            Unit::Minute => (Word::Minute, Word::Minutes),
            Unit::Second => (Word::Second, Word::Seconds),
            Unit::Move => (Word::Move, Word::Moves),
        }
    }
}

/// The gender of each unit. The default is German's (Stunde, Minute,
/// Sekunde feminine; Zug masculine), which packs without a `[grammar]`
/// table get.
///
/// # Examples
///
/// ```
/// use tactus_rules::grammar::{Gender, Genders};
///
/// // A Spanish pack's `[grammar]`: hora feminine, minuto masculine, …
/// let es: Genders = toml::from_str("hour = 'f'\nminute = 'm'\nsecond = 'm'\nmove = 'f'").unwrap();
/// assert_eq!(es.minute, Gender::Masculine);
/// assert_eq!(Genders::default().minute, Gender::Feminine); // German's Minute
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Genders {
    /// The gender of the word for hour.
    pub hour: Gender,
    /// The gender of the word for minute.
    pub minute: Gender,
    /// The gender of the word for second.
    pub second: Gender,
    /// The gender of the word for move (`move` in the pack).
    #[serde(rename = "move")]
    pub moves: Gender,
}

impl Default for Genders {
    fn default() -> Genders {
        Genders {
            hour: Gender::Feminine,
            minute: Gender::Feminine,
            second: Gender::Feminine,
            moves: Gender::Masculine,
        }
    }
}

impl Genders {
    fn of(&self, unit: Unit) -> Gender {
        match unit {
            Unit::Hour => self.hour,
            Unit::Minute => self.minute,
            Unit::Second => self.second,
            Unit::Move => self.moves,
        }
    }
}

/// A pack's grammar: the units' genders and the number forms it records.
///
/// # Examples
///
/// ```
/// use tactus_rules::grammar::{Grammar, Unit};
///
/// let one: Vec<String> = Grammar::default().count(1, Unit::Move).iter().map(|t| t.key()).collect();
/// assert_eq!(one, ["num.one_m", "unit.move"]); // "ein Zug"
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grammar {
    /// The gender of each unit.
    pub genders: Genders,
    /// The [`Token::NumberForm`]s the pack has.
    forms: HashSet<(u16, Form)>,
}

impl Grammar {
    /// A grammar with these genders and whichever of `tokens` are number
    /// forms (other tokens are ignored, so a pack's whole vocabulary may be
    /// passed).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::grammar::{Gender, Genders, Grammar, Unit};
    /// use tactus_rules::token::{Form, Token};
    ///
    /// let genders = Genders { moves: Gender::Feminine, ..Genders::default() };
    /// let es = Grammar::new(genders, [Token::NumberForm(41, Form::Feminine), Token::Number(7)]);
    /// assert_eq!(es.count(41, Unit::Move)[0], Token::NumberForm(41, Form::Feminine));
    /// ```
    pub fn new(genders: Genders, tokens: impl IntoIterator<Item = Token>) -> Grammar {
        let forms = tokens
            .into_iter()
            .filter_map(|t| match t {
                Token::NumberForm(n, f) => Some((n, f)),
                _ => None,
            })
            .collect();
        Grammar { genders, forms }
    }

    /// `n` of `unit`: "one" in the unit's gender and the singular for 1,
    /// else the number (in the unit's gender where the pack has that form)
    /// and the plural. Numbers are capped at 999 as [`Token::number`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::grammar::{Grammar, Unit};
    ///
    /// let say = |n, unit| -> Vec<String> {
    ///     Grammar::default().count(n, unit).iter().map(|t| t.key()).collect()
    /// };
    /// assert_eq!(say(1, Unit::Hour), ["num.one_f", "unit.hour"]); // "eine Stunde"
    /// assert_eq!(say(0, Unit::Second), ["num.0", "unit.seconds"]);
    /// assert_eq!(say(120, Unit::Move), ["num.100", "num.20", "unit.moves"]);
    /// ```
    pub fn count(&self, n: u32, unit: Unit) -> Vec<Token> {
        let gender = self.genders.of(unit);
        let (one, many) = unit.words();
        if n == 1 {
            let word = match gender {
                Gender::Masculine => Word::OneMasculine,
                Gender::Feminine => Word::OneFeminine,
            };
            return vec![Token::Word(word), Token::Word(one)];
        }
        let agree = match gender {
            Gender::Masculine => Form::Masculine,
            Gender::Feminine => Form::Feminine,
        };
        let mut parts = Token::number(n);
        let last = parts.len() - 1;
        for (i, part) in parts.iter_mut().enumerate() {
            let Token::Number(k) = *part else { continue };
            let wanted: &[Form] = if i < last {
                &[Form::Leading, agree]
            } else {
                &[agree]
            };
            if let Some(&f) = wanted.iter().find(|&&f| self.forms.contains(&(k, f))) {
                *part = Token::NumberForm(k, f);
            }
        }
        parts.push(Token::Word(many));
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(tokens: &[Token]) -> Vec<String> {
        tokens.iter().map(Token::key).collect()
    }

    #[test]
    fn the_default_is_german() {
        let g = Grammar::default();
        assert_eq!(keys(&g.count(1, Unit::Hour)), ["num.one_f", "unit.hour"]);
        assert_eq!(keys(&g.count(1, Unit::Move)), ["num.one_m", "unit.move"]);
        assert_eq!(keys(&g.count(21, Unit::Minute)), ["num.21", "unit.minutes"]);
        assert_eq!(
            keys(&g.count(123, Unit::Move)),
            ["num.100", "num.23", "unit.moves"]
        );
    }

    #[test]
    fn genders_and_recorded_forms_choose_the_words() {
        let genders = Genders {
            hour: Gender::Feminine,
            minute: Gender::Masculine,
            second: Gender::Masculine,
            moves: Gender::Feminine,
        };
        let g = Grammar::new(
            genders,
            [
                Token::NumberForm(21, Form::Masculine),
                Token::NumberForm(21, Form::Feminine),
                Token::NumberForm(100, Form::Leading),
                Token::NumberForm(200, Form::Feminine),
                Token::Number(5),
            ],
        );
        assert_eq!(
            keys(&g.count(1, Unit::Minute)),
            ["num.one_m", "unit.minute"]
        );
        assert_eq!(keys(&g.count(1, Unit::Move)), ["num.one_f", "unit.move"]);
        assert_eq!(
            keys(&g.count(21, Unit::Second)),
            ["num.21.m", "unit.seconds"]
        );
        assert_eq!(keys(&g.count(21, Unit::Move)), ["num.21.f", "unit.moves"]);
        // A number without forms is said as it is.
        assert_eq!(keys(&g.count(22, Unit::Move)), ["num.22", "unit.moves"]);
        assert_eq!(keys(&g.count(100, Unit::Move)), ["num.100", "unit.moves"]);
        assert_eq!(
            keys(&g.count(121, Unit::Move)),
            ["num.100.lead", "num.21.f", "unit.moves"]
        );
        assert_eq!(
            keys(&g.count(203, Unit::Move)),
            ["num.200.f", "num.3", "unit.moves"]
        );
    }

    #[test]
    fn a_pack_grammar_table_reads() {
        let g: Genders = toml::from_str("hour = \"f\"\nminute = \"m\"\nmove = \"f\"").unwrap();
        assert_eq!(g.minute, Gender::Masculine);
        assert_eq!(g.second, Gender::Feminine, "unsaid: the default");
        assert!(toml::from_str::<Genders>("day = \"m\"").is_err());
        assert!(toml::from_str::<Genders>("hour = \"n\"").is_err());
    }
}
