//! Rendering a token list to samples: the clips in order with the pack's gap
//! of silence between words, at an output rate.
//!
//! A [`RatePack`] is a voice pack resampled once to one output rate (made by
//! [`VoicePack::at_rate`](super::voice_pack::VoicePack::at_rate)); rendering
//! an announcement then only copies samples.

use std::collections::HashMap;
use std::sync::Arc;

use super::voice_pack::VoicePack;
use tactus_rules::token::Token;

/// A pack's clips resampled to one output rate.
#[derive(Debug)]
pub struct RatePack {
    rate: u32,
    gap: usize,
    clips: HashMap<Token, Arc<[f32]>>,
}

/// A piece of an announcement as it is output: recorded samples, or text
/// for speech synthesis where the pack has no clip.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Mono samples at the [`RatePack`]'s rate (gaps included).
    Samples(Vec<f32>),
    /// Words without a clip, to be synthesised.
    Speak(String),
}

impl RatePack {
    /// A pack at `rate` with `gap` samples of silence between words.
    pub fn new(rate: u32, gap: usize, clips: HashMap<Token, Arc<[f32]>>) -> RatePack {
        RatePack { rate, gap, clips }
    }

    /// The output sample rate.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// One token's clip at this rate.
    pub fn clip(&self, token: Token) -> Option<&[f32]> {
        self.clips.get(&token).map(|c| &c[..])
    }

    /// Appends the announcement's samples to `out`: each clip, with the gap
    /// between two words. Returns the tokens that have no clip (skipped, no
    /// gap for them); empty for a complete pack.
    pub fn render_into(&self, tokens: &[Token], out: &mut Vec<f32>) -> Vec<Token> {
        let mut missing = Vec::new();
        let mut first = true;
        for &token in tokens {
            let Some(clip) = self.clips.get(&token) else {
                missing.push(token);
                continue;
            };
            if !first {
                out.resize(out.len() + self.gap, 0.0);
            }
            out.extend_from_slice(clip);
            first = false;
        }
        missing
    }

    /// The announcement's samples (tokens without a clip left out).
    pub fn render(&self, tokens: &[Token]) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.rendered_len(tokens));
        self.render_into(tokens, &mut out);
        out
    }

    /// The length in samples of [`render`](Self::render)'s result.
    pub fn rendered_len(&self, tokens: &[Token]) -> usize {
        let (n, len) = tokens
            .iter()
            .filter_map(|t| self.clips.get(t))
            .fold((0usize, 0usize), |(n, len), c| (n + 1, len + c.len()));
        len + n.saturating_sub(1) * self.gap
    }

    /// The announcement as output parts: runs of clips as samples, runs of
    /// clip-less tokens as text (from `pack`) for speech synthesis.
    pub fn parts(&self, pack: &VoicePack, tokens: &[Token]) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut run: Vec<Token> = Vec::new();
        let mut run_has_clips = true;
        let flush = |run: &mut Vec<Token>, clips: bool, parts: &mut Vec<Part>| {
            if run.is_empty() {
                return;
            }
            parts.push(if clips {
                Part::Samples(self.render(run))
            } else {
                Part::Speak(pack.text(run))
            });
            run.clear();
        };
        for &token in tokens {
            let has = self.clips.contains_key(&token);
            if has != run_has_clips {
                flush(&mut run, run_has_clips, &mut parts);
                run_has_clips = has;
            }
            run.push(token);
        }
        flush(&mut run, run_has_clips, &mut parts);
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{File, Rank};

    fn pack() -> RatePack {
        let mut clips = HashMap::new();
        clips.insert(Token::File(File::E), Arc::from(vec![0.5f32; 3]));
        clips.insert(Token::Rank(Rank::Fourth), Arc::from(vec![-0.5f32; 2]));
        RatePack::new(1000, 4, clips)
    }

    #[test]
    fn clips_in_order_with_gaps_between_words_only() {
        let p = pack();
        let tokens = [
            Token::File(File::E),
            Token::Rank(Rank::Fourth),
            Token::File(File::E),
        ];
        let out = p.render(&tokens);
        let mut expected = vec![0.5; 3];
        expected.extend([0.0; 4]);
        expected.extend([-0.5; 2]);
        expected.extend([0.0; 4]);
        expected.extend([0.5; 3]);
        assert_eq!(out, expected);
        assert_eq!(p.rendered_len(&tokens), out.len());
        assert!(p.render(&[]).is_empty());
    }

    #[test]
    fn clipless_tokens_are_reported_and_skipped() {
        let p = pack();
        let mut out = Vec::new();
        let missing = p.render_into(
            &[Token::Number(7), Token::File(File::E), Token::Number(8)],
            &mut out,
        );
        assert_eq!(missing, vec![Token::Number(7), Token::Number(8)]);
        assert_eq!(out, vec![0.5; 3]);
    }
}
