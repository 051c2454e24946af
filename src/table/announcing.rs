//! Saying things at a table: the blind player's move announced before it is
//! made (D.2.3.3, D.2.4), notices spoken on the table's speaker and sent as
//! text to every page, and the state published after each change.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::Move;
use tokio::sync::{broadcast, oneshot};

use super::actions::PersonRole;
use super::error::TableError;
use super::handle::Reply;
use super::recent::Recent;
use super::speaker::Speaker;
use super::view::{Announcement, LiveEvent, TableView};
use tactus_rules::clock_announce::{ClockReading, Shown, clock_tokens_in};
use tactus_rules::game::{Notice, NoticeKind};
use tactus_rules::token::Token;
use tactus_speech::voice_pack::VoicePack;

/// What a table says and shows, and all it keeps to do so: the voice that
/// words it, the speaker that speaks it, the live stream and the recent
/// announcements the pages read, the last words (for "repeat"), and the
/// blind player's move while it is being announced, with whoever waits for
/// it to be made.
pub(super) struct Announcer {
    voice: Arc<VoicePack>,
    speaker: Speaker,
    live: broadcast::Sender<LiveEvent>,
    recent: Recent,
    /// The number of the last announcement.
    seq: u64,
    /// The last words said but a repeat, and their text (which every view
    /// the table publishes shows).
    last_said: Option<(Vec<Token>, String)>,
    /// The blind player's move being announced, if any.
    announcing: Option<Announcing>,
    /// When each requester's last spoken answer to each kind of request (a
    /// clock reading left or used, a repeat, the board's differences) has
    /// been said, on the table's time, and its words: the same asked again
    /// before then is answered, not said again (a clock reading is the
    /// same request whatever its seconds; the others when their words are
    /// the same: a board put right is said at once). A requester cannot
    /// ask faster than it can be said, whatever the sink (a `wav:` folder
    /// does not pace in real time). One entry per role and kind: bounded.
    paced: BTreeMap<(PersonRole, Asked), (Duration, Vec<Token>)>,
}

/// What kind of request a spoken answer answers, for pacing (`say_asked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Asked {
    ClockLeft,
    ClockUsed,
    Repeat,
    BoardDifferences,
}

impl Asked {
    /// A clock reading is the same request whatever its seconds.
    fn is_clock(self) -> bool {
        matches!(self, Asked::ClockLeft | Asked::ClockUsed)
    }
}

/// A blind player's move while it is being announced: it is *made* when the
/// announcement has been spoken (D.2.3.3), and only then journaled and the
/// opponent's clock started (D.2.4).
struct Announcing {
    m: Move,
    /// The board it was made on, if any (the others follow it once made).
    made_on: Option<usize>,
    /// The announcement's text, the reply once the move is made.
    text: String,
    spoken: oneshot::Receiver<()>,
    /// Who waits for the move to be made.
    replying: Replying,
}

/// Who waits for an announced move to be made: one state, so that a reply
/// both wanted and already handed over (or neither and yet held) cannot be
/// written down.
enum Replying {
    /// Nobody (yet): a move made on a board, or one a request began whose
    /// reply is handed over when its action returns (`reply_when_made`).
    Nobody,
    /// The request's reply, sent once the move is made (or refused).
    Waiting(oneshot::Sender<Result<Reply, TableError>>),
}

impl Announcer {
    pub(super) fn new(
        voice: Arc<VoicePack>,
        speaker: Speaker,
        live: broadcast::Sender<LiveEvent>,
        recent: Recent,
    ) -> Announcer {
        Announcer {
            voice,
            speaker,
            live,
            recent,
            seq: 0,
            last_said: None,
            announcing: None,
            paced: BTreeMap::new(),
        }
    }

    /// Says `tokens`, asked for by `role` at `now` (`asked`: what kind of
    /// request), unless `role`'s last such request is still being said:
    /// then they are the reply only (the requester reads them; nobody
    /// hears them twice). `latest`: a newer one of the kind replaces one
    /// still waiting (`say_latest`).
    fn say_asked(
        &mut self,
        (role, asked): (PersonRole, Asked),
        now: Duration,
        kind: NoticeKind,
        tokens: Vec<Token>,
        latest: bool,
    ) -> Reply {
        let again = self
            .paced
            .get(&(role, asked))
            .is_some_and(|(until, said)| now < *until && (asked.is_clock() || *said == tokens));
        if again {
            return Reply {
                text: Some(self.voice.text(&tokens)),
                data: None,
                paced: true,
            };
        }
        let until = now + self.voice.spoken_length(&tokens);
        self.paced.insert((role, asked), (until, tokens.clone()));
        if latest {
            self.say_latest(kind, tokens)
        } else {
            self.say(kind, tokens)
        }
    }

    /// Starts announcing the blind player's move `m` (made on board
    /// `made_on`, if any) in the words `tokens`; it is made once spoken.
    pub(super) fn begin(&mut self, m: Move, made_on: Option<usize>, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
        let spoken = self.speaker.say_then(tokens.clone(), text.clone());
        self.publish_said(NoticeKind::Move, tokens, text.clone());
        self.announcing = Some(Announcing {
            m,
            made_on,
            text: text.clone(),
            spoken,
            replying: Replying::Nobody,
        });
        Reply {
            text: Some(text),
            data: None,
            paced: false,
        }
    }

    /// Keeps `reply` for the move being announced, to be sent once the
    /// move is made, if the request it answers began that announcement
    /// (`began`: nothing was being announced before it); gives it back
    /// otherwise.
    pub(super) fn reply_when_made(
        &mut self,
        began: bool,
        reply: oneshot::Sender<Result<Reply, TableError>>,
    ) -> Option<oneshot::Sender<Result<Reply, TableError>>> {
        match self.announcing.as_mut() {
            Some(a) if began && matches!(a.replying, Replying::Nobody) => {
                a.replying = Replying::Waiting(reply);
                None
            }
            _ => Some(reply),
        }
    }

    /// The clock announcement (D.2.6, D.2.10.4) for `role` at `now`: the
    /// time left or used (`shown`), of `reading`.
    pub(super) fn say_clock(
        &mut self,
        role: PersonRole,
        now: Duration,
        reading: &ClockReading,
        shown: Shown,
    ) -> Reply {
        let tokens = clock_tokens_in(reading, shown, self.voice.grammar());
        let asked = match shown {
            Shown::Remaining => Asked::ClockLeft,
            Shown::Used => Asked::ClockUsed,
        };
        self.say_asked((role, asked), now, NoticeKind::Clock, tokens, true)
    }

    /// The last announcement again, in full, for `role` at `now` (nothing
    /// if none yet).
    pub(super) fn repeat(&mut self, role: PersonRole, now: Duration) -> Reply {
        match self.last_said.as_ref().map(|(tokens, _)| tokens.clone()) {
            Some(tokens) => {
                self.say_asked((role, Asked::Repeat), now, NoticeKind::Repeat, tokens, true)
            }
            None => Reply::default(),
        }
    }

    /// Which holes of a board differ (`tokens`), for `role` at `now`: said
    /// again at once when they changed (a board put right).
    pub(super) fn board_differences(
        &mut self,
        role: PersonRole,
        now: Duration,
        tokens: Vec<Token>,
    ) -> Reply {
        let asked = (role, Asked::BoardDifferences);
        self.say_asked(asked, now, NoticeKind::Board, tokens, false)
    }

    /// A new game: nothing of the last one is being announced or repeated.
    pub(super) fn forget_game(&mut self) {
        self.announcing = None;
        self.last_said = None;
    }

    pub(super) fn announce(&mut self, notices: Vec<Notice>) -> Reply {
        let mut reply = Reply::default();
        for notice in notices {
            let r = self.say(notice.kind, notice.tokens);
            reply.text = match (reply.text.take(), r.text) {
                (Some(a), Some(b)) => Some(format!("{a} {b}")),
                (a, b) => a.or(b),
            };
        }
        reply
    }

    /// Speaks `tokens` (audio on the table's speaker, never blocking the
    /// table) and sends their text to every page.
    pub(super) fn say(&mut self, kind: NoticeKind, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
        self.speaker.say(tokens.clone(), text.clone());
        self.publish_said(kind, tokens, text)
    }

    /// Like [`Self::say`] for words that tell a state (the clock read out,
    /// a repeat): words of the same kind still waiting to be spoken are
    /// replaced, so asking again while one waits is one announcement.
    pub(super) fn say_latest(&mut self, kind: NoticeKind, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
        self.speaker.say_latest(kind, tokens.clone(), text.clone());
        self.publish_said(kind, tokens, text)
    }

    /// Sends what is being said, `tokens` worded as `text`, to every page
    /// (as text: every message a player can hear also exists as text) and
    /// keeps it for "repeat".
    fn publish_said(&mut self, kind: NoticeKind, tokens: Vec<Token>, text: String) -> Reply {
        self.seq += 1;
        let announcement = Announcement {
            seq: self.seq,
            kind,
            text: text.clone(),
            tokens: tokens.iter().map(Token::key).collect(),
        };
        self.recent.push(announcement.clone());
        let _ = self.live.send(LiveEvent::Announcement(announcement));
        if kind != NoticeKind::Repeat {
            self.last_said = Some((tokens, text.clone()));
        }
        Reply {
            text: Some(text),
            data: None,
            paced: false,
        }
    }

    /// Sends the table's state (`view`, made only if a page listens) to
    /// the live stream.
    pub(super) fn publish_state(&self, view: impl FnOnce() -> TableView) {
        if self.live.receiver_count() > 0 {
            let _ = self.live.send(LiveEvent::State(Box::new(view())));
        }
    }

    pub(super) fn voice(&self) -> &Arc<VoicePack> {
        &self.voice
    }

    /// Speaks with `voice` from now on.
    pub(super) fn set_voice(&mut self, voice: Arc<VoicePack>) {
        self.speaker.set_voice(Arc::clone(&voice));
        self.voice = voice;
    }

    pub(super) fn speaker(&self) -> &Speaker {
        &self.speaker
    }

    /// Whether a blind player's move is being announced.
    pub(super) fn is_announcing(&self) -> bool {
        self.announcing.is_some()
    }

    /// The text of the last words said (but a repeat), if any.
    pub(super) fn last_said(&self) -> Option<&str> {
        self.last_said.as_ref().map(|(_, text)| text.as_str())
    }

    /// Resolves when the move being announced has been spoken (or the
    /// speaker gave up on it), handing it over to be made
    /// ([`AnnouncedMove`]), or when the sound output came or went.
    pub(super) async fn next_change(&mut self) -> Change {
        let announced = async {
            match &mut self.announcing {
                Some(a) => {
                    let _ = (&mut a.spoken).await;
                }
                None => std::future::pending().await,
            }
        };
        let spoken = tokio::select! {
            _ = announced => true,
            _ = self.speaker.audio_changed() => false,
        };
        match self.announcing.take() {
            Some(a) if spoken => Change::Spoken(AnnouncedMove {
                m: a.m,
                made_on: a.made_on,
                text: a.text,
                replying: a.replying,
            }),
            other => {
                self.announcing = other;
                Change::Audio
            }
        }
    }
}

/// What changed in what a table says.
pub(super) enum Change {
    /// The blind player's move has been announced: to be made now.
    Spoken(AnnouncedMove),
    /// The sound output came back or failed (pages show it).
    Audio,
}

/// A blind player's move once its announcement has been spoken.
pub(super) struct AnnouncedMove {
    pub(super) m: Move,
    /// The board it was made on, if any.
    pub(super) made_on: Option<usize>,
    /// The announcement's text, the reply once the move is made.
    pub(super) text: String,
    replying: Replying,
}

impl AnnouncedMove {
    /// Answers whoever waits for the move to be made.
    pub(super) fn answer(self, result: Result<Reply, TableError>) {
        if let Replying::Waiting(reply) = self.replying {
            let _ = reply.send(result);
        }
    }
}
