//! Saying things at a table: the blind player's move announced before it is
//! made (D.2.3.3, D.2.4), notices spoken on the table's speaker and sent as
//! text to every page, and the state published after each change.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Move, Position};
use tokio::sync::{broadcast, oneshot};

use super::actions::PersonRole;
use super::actor::{Reply, TableActor, TableError, refusal};
use super::published::Published;
use super::recent::Recent;
use super::speaker::Speaker;
use super::view::{Announcement, LiveEvent, TableView};
use tactus_rules::event::GameEvent;
use tactus_rules::game::{Notice, NoticeKind};
use tactus_rules::token::Token;
use tactus_speech::voice_pack::VoicePack;

/// What a table says and shows, and all it keeps to do so: the voice that
/// words it, the speaker that speaks it, the live stream and the recent
/// announcements the pages read, the last words (for "repeat"), and the
/// blind player's move while it is being announced, with whoever waits for
/// it to be made.
pub(super) struct Announcer {
    pub(super) voice: Arc<VoicePack>,
    pub(super) speaker: Speaker,
    pub(super) live: broadcast::Sender<LiveEvent>,
    pub(super) recent: Recent,
    /// The number of the last announcement.
    seq: u64,
    /// The last words said but a repeat, with their kind.
    pub(super) last_said: Option<(NoticeKind, Vec<Token>)>,
    /// The blind player's move being announced, if any.
    pub(super) announcing: Option<Announcing>,
    /// When each requester's last spoken answer to each kind of request (a
    /// clock reading left or used, a repeat, the board's differences) has
    /// been said, on the table's time, and its words: the same asked again
    /// before then is answered, not said again (a clock reading is the
    /// same request whatever its seconds; the others when their words are
    /// the same: a board put right is said at once). A requester cannot
    /// ask faster than it can be said, whatever the sink (a `wav:` folder
    /// does not pace in real time). One entry per role and kind: bounded.
    paced: BTreeMap<(PersonRole, &'static str), (Duration, Vec<Token>)>,
}

/// A blind player's move while it is being announced: it is *made* when the
/// announcement has been spoken (D.2.3.3), and only then journaled and the
/// opponent's clock started (D.2.4).
pub(super) struct Announcing {
    pub(super) m: Move,
    /// The board it was made on, if any (the others follow it once made).
    pub(super) made_on: Option<usize>,
    /// The announcement's text, the reply once the move is made.
    pub(super) text: String,
    pub(super) spoken: oneshot::Receiver<()>,
    /// Who waits for the move to be made.
    pub(super) replying: Replying,
}

/// Who waits for an announced move to be made: one state, so that a reply
/// both wanted and already handed over (or neither and yet held) cannot be
/// written down.
pub(super) enum Replying {
    /// Nobody (yet): a move made on a board, or one a request began whose
    /// reply is handed over when its action returns (`reply_when_made`).
    Nobody,
    /// The request's reply, sent once the move is made (or refused).
    Waiting(oneshot::Sender<Result<Reply, TableError>>),
}

impl TableActor {
    /// Makes a move: journaled, clock pressed at the instant it was made,
    /// announced, and followed on every board it was not made on (board
    /// `made_on`, if any).
    pub(super) async fn play(
        &mut self,
        m: Move,
        made_on: Option<usize>,
    ) -> Result<Reply, TableError> {
        let uci = self.uci(m);
        if self.announcer.announcing.is_some() {
            return Err(super::actor::Unprocessable::Announcing.into());
        }
        let blind_moves = self.game.position().turn() == self.setup.blind;
        if blind_moves && self.announcer.speaker.is_audible() {
            return self.announce_blind_move(m, made_on, uci);
        }
        let reply = self.commit(GameEvent::MovePlayed { uci }).await?;
        self.follow(m, made_on);
        Ok(reply)
    }

    /// D.2.3.3, D.2.4: the blind player's move is checked now and announced;
    /// it is made (journaled, the clock pressed) when the announcement has
    /// been spoken on the table's output, in [`Self::announced`].
    pub(super) fn announce_blind_move(
        &mut self,
        m: Move,
        made_on: Option<usize>,
        uci: UciMove,
    ) -> Result<Reply, TableError> {
        let now = self.time.now();
        let notices = self
            .game
            .clone()
            .apply(now, &GameEvent::MovePlayed { uci })
            .map_err(refusal)?;
        let tokens = notices
            .into_iter()
            .find(|n| n.kind == NoticeKind::Move)
            .map(|n| n.tokens)
            .unwrap_or_default();
        Ok(self.announcer.begin(m, made_on, tokens))
    }

    /// The announced move has been spoken: it is made now.
    pub(super) async fn announced(&mut self) {
        let Some(a) = self.announcer.announcing.take() else {
            return;
        };
        let uci = self.uci(a.m);
        let result = self
            .commit_said(GameEvent::MovePlayed { uci }, Some(NoticeKind::Move))
            .await;
        let result = match result {
            Ok(mut reply) => {
                self.follow(a.m, a.made_on);
                reply.text = Some(match reply.text {
                    Some(more) => format!("{} {more}", a.text),
                    None => a.text,
                });
                Ok(reply)
            }
            Err(e) => {
                // The game changed while it was said (a flag, a ruling): the
                // move was not made; the boards follow the game again.
                tracing::info!(table = %self.setup.id, "announced move not made: {e}");
                self.resync_board();
                Err(e)
            }
        };
        if let Replying::Waiting(reply) = a.replying {
            let _ = reply.send(result);
        }
    }

    /// Publishes the table's state to readers and to the live stream.
    pub(super) fn publish_state(&self) {
        let published = self.publish();
        self.announcer.publish_state(|| published.view.clone());
    }

    /// Publishes the table's state to readers only (a step the live
    /// stream need not hear of, or has heard of already).
    pub(super) fn refresh(&self) {
        self.publish();
    }

    /// Replaces what readers see with the table as it is now; the PGN is
    /// written again only if the game changed since the last time.
    fn publish(&self) -> Arc<Published> {
        let pgn = match &*self.publisher.borrow() {
            Some(p) if p.game_rev == self.game_rev => Some(Arc::clone(&p.pgn)),
            _ => None,
        };
        let published = Arc::new(Published {
            view: self.view(),
            clock: self.game.clock().clone(),
            pgn: pgn.unwrap_or_else(|| Arc::from(self.pgn())),
            voice: Arc::clone(&self.announcer.voice),
            game_rev: self.game_rev,
        });
        self.publisher.send_replace(Some(Arc::clone(&published)));
        published
    }
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
    pub(super) fn say_asked(
        &mut self,
        (role, asked): (PersonRole, &'static str),
        now: Duration,
        kind: NoticeKind,
        tokens: Vec<Token>,
        latest: bool,
    ) -> Reply {
        let again = self.paced.get(&(role, asked)).is_some_and(|(until, said)| {
            now < *until && (asked.starts_with("clock") || *said == tokens)
        });
        if again {
            return Reply {
                text: Some(self.voice.text(&tokens)),
                data: None,
                paced: true,
            };
        }
        let until = now + self.spoken_length(&tokens);
        self.paced.insert((role, asked), (until, tokens.clone()));
        if latest {
            self.say_latest(kind, tokens)
        } else {
            self.say(kind, tokens)
        }
    }

    /// How long `tokens` take to say: their clips (already at the pack's
    /// speed) and the gaps between them; a word without a clip (spoken by
    /// the system's synthesizer) counted as 400 ms.
    fn spoken_length(&self, tokens: &[Token]) -> Duration {
        let rate = f64::from(self.voice.sample_rate().max(1));
        let clips: f64 = tokens
            .iter()
            .map(|t| self.voice.clip(*t).map_or(0.4, |c| c.len() as f64 / rate))
            .sum();
        let gaps = f64::from(self.voice.gap_ms()) / 1000.0 * tokens.len().saturating_sub(1) as f64;
        Duration::from_secs_f64(clips + gaps)
    }

    /// Starts announcing the blind player's move `m` (made on board
    /// `made_on`, if any) in the words `tokens`; it is made once spoken.
    fn begin(&mut self, m: Move, made_on: Option<usize>, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
        let spoken = self.speaker.say_then(tokens.clone(), text.clone());
        self.publish_said(NoticeKind::Move, tokens);
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
        self.publish_said(kind, tokens)
    }

    /// Like [`Self::say`] for words that tell a state (the clock read out,
    /// a repeat): words of the same kind still waiting to be spoken are
    /// replaced, so asking again while one waits is one announcement.
    pub(super) fn say_latest(&mut self, kind: NoticeKind, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
        self.speaker.say_latest(kind, tokens.clone(), text);
        self.publish_said(kind, tokens)
    }

    /// Sends what is being said to every page (as text: every message a
    /// player can hear also exists as text) and keeps it for "repeat".
    pub(super) fn publish_said(&mut self, kind: NoticeKind, tokens: Vec<Token>) -> Reply {
        let text = self.voice.text(&tokens);
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
            self.last_said = Some((kind, tokens));
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
}

/// Resolves when the move being announced has been spoken (or the speaker
/// gave up on it); never if no move is being announced.
pub(super) async fn spoken(announcing: &mut Option<Announcing>) {
    match announcing {
        Some(a) => {
            let _ = (&mut a.spoken).await;
        }
        None => std::future::pending().await,
    }
}
