//! The table's voice: a thread that owns the audio sink, so a slow or stuck
//! sound device never holds up the table (the table hands over the words
//! and goes on).

use std::sync::mpsc;

use crate::rules::token::Token;
use crate::speech::sink::Sink;

/// Where a table's announcements are spoken.
pub struct Speaker {
    tx: Option<mpsc::Sender<(Vec<Token>, String)>>,
}

impl Speaker {
    /// Speaks through `sink` on a thread of its own.
    pub fn spawn(name: &str, mut sink: Box<dyn Sink + Send>) -> std::io::Result<Speaker> {
        let (tx, rx) = mpsc::channel::<(Vec<Token>, String)>();
        let table = name.to_owned();
        std::thread::Builder::new()
            .name(format!("speaker-{name}"))
            .spawn(move || {
                while let Ok((tokens, text)) = rx.recv() {
                    if let Err(e) = sink.say(&tokens, &text) {
                        tracing::warn!(table = %table, "announcement not spoken: {e:#}");
                    }
                }
                if let Err(e) = sink.finish() {
                    tracing::warn!(table = %table, "audio output not finished: {e:#}");
                }
            })?;
        Ok(Speaker { tx: Some(tx) })
    }

    /// A speaker that says nothing aloud: the text still reaches the pages.
    pub fn silent() -> Speaker {
        Speaker { tx: None }
    }

    /// Hands the words to the speaker thread; returns at once.
    pub fn say(&self, tokens: Vec<Token>, text: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send((tokens, text));
        }
    }
}
