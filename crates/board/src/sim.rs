//! A board simulator on a pseudo-terminal: it speaks the peg, the DGT or
//! the Millennium ChessLink protocol like a real board, so tactus can be
//! tried without hardware and tests can drive real serial I/O. It knows the
//! pieces (a DGT or ChessLink board must), keeps the pieces lifted "in
//! hand", and shows which squares the host lit (DGT Revelation II and
//! ChessLink LEDs).
//!
//! As a ChessLink board it answers `S`, `V`, `L`, `X`, `W`, `R` (`T` is
//! ignored), acknowledges only commands with a right block check, and sends
//! its status on every change unless automatic reports are switched off
//! (E2ROM address 02 = 01); a real board's default, a status on every scan,
//! is modelled as one on every change.
//!
//! Unplugging closes both ends of the pseudo-terminal (the host sees a
//! hang-up); replugging opens a new pair. A USB path that comes back is
//! modelled by a symlink (`link`) repointed to the new pair's terminal.

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use serialport::{SerialPort, TTYPort};
use shakmaty::{Board, Color, File, Piece, Role, Square};

use thiserror::Error;

use super::event::{BoardEvent, ClockMessage, ClockTime, Protocol, SideTime};
use super::hands::{self, Act, Plan};
use super::wake::{self, Wake};
use super::{dgt, millennium, peg};

/// Why the simulator could not do what it was asked (nothing changed).
#[derive(Debug, Error)]
pub enum SimError {
    #[error("cannot {what} the pseudo-terminal: {source}")]
    Pty {
        what: &'static str,
        source: serialport::Error,
    },
    #[error("the pseudo-terminal has no name")]
    NoName,
    #[error("cannot point {} at {}: {source}", link.display(), target.display())]
    Link {
        link: PathBuf,
        target: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start the simulator thread: {0}")]
    Thread(std::io::Error),
    #[error("the board is already unplugged")]
    Unplugged,
    #[error("the board is already plugged in")]
    Plugged,
    #[error("no piece on {0} to lift")]
    NothingToLift(Square),
    #[error("{0} is occupied")]
    Occupied(Square),
    #[error("no piece in hand to put")]
    EmptyHand,
    #[error("no piece on {0}")]
    NoPiece(Square),
    #[error("{0:?} is no move like e2e4 or e7e8q")]
    BadMove(String),
    #[error("{0:?}: {1} is no piece")]
    BadPromotion(String, char),
    #[error("a {0} board has no frame buttons")]
    NoButtons(&'static str),
    #[error("button {0}: buttons are 1 to 9")]
    BadButton(u8),
    #[error("{0:?} is no button number")]
    BadButtonNumber(String),
    #[error("a square is missing")]
    MissingSquare,
    #[error("{0:?} is no square")]
    BadSquare(String),
    #[error("{0:?} is no piece letter like Q or n")]
    BadPieceLetter(String),
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
}

/// How often the simulator looks for a host while none has the terminal
/// open.
const NO_HOST: Duration = Duration::from_millis(20);

/// The hello line / version the simulator reports.
pub const SIM_HELLO: &str = "tactus-sim 1.0";

struct Shared {
    protocol: Protocol,
    board: Board,
    /// DGT: field updates are sent only after the host asked (0x4B/0x43/0x44).
    updates: bool,
    master: Option<TTYPort>,
    /// Squares the host lit (LEDs), in square order.
    leds: Vec<Square>,
    /// ChessLink E2ROM (address 02: automatic reports).
    e2rom: [u8; 256],
    /// Bytes held back to be sent in one write (a batch of hand steps).
    held: Option<Vec<u8>>,
    /// DGT: the side whose time a DGT clock on the board runs (White's on
    /// the left), once a player pressed it.
    clock_runs: Option<Color>,
    /// A peg board's hello text ([`SIM_HELLO`] unless set).
    hello: String,
}

impl Shared {
    fn write(&mut self, bytes: &[u8]) {
        if let Some(held) = self.held.as_mut() {
            held.extend_from_slice(bytes);
            return;
        }
        if let Some(m) = self.master.as_mut()
            && let Err(e) = m.write_all(bytes)
        {
            tracing::warn!(error = %e, "simulator write failed");
        }
    }

    fn send(&mut self, event: &BoardEvent) {
        let bytes = match self.protocol {
            Protocol::Peg => peg::encode(event).map(String::into_bytes),
            Protocol::Dgt => {
                if matches!(event, BoardEvent::Field { .. }) && !self.updates {
                    return;
                }
                dgt::encode(event)
            }
            Protocol::Millennium => match event {
                BoardEvent::Field { .. } if self.e2rom[2] & 0x07 == 0x01 => None,
                BoardEvent::Field { .. } => Some(millennium::status(&self.board)),
                other => millennium::encode(other),
            },
        };
        if let Some(b) = bytes {
            self.write(&b);
        }
    }

    fn full_scan(&mut self) {
        let event = match self.protocol {
            Protocol::Peg => BoardEvent::Scan(self.board.occupied()),
            Protocol::Dgt | Protocol::Millennium => BoardEvent::Dump(self.board.clone()),
        };
        self.send(&event);
        // A DGT board passes on its clock's state (a real one every second
        // while it runs): the host knows which side runs before a press.
        if let Some(runs) = self.clock_runs {
            self.send(&clock_event(runs));
        }
    }

    fn hello(&mut self) {
        let event = match self.protocol {
            Protocol::Peg => BoardEvent::Hello(self.hello.clone()),
            Protocol::Dgt | Protocol::Millennium => BoardEvent::Version { major: 1, minor: 0 },
        };
        self.send(&event);
    }

    /// A ChessLink command from the host.
    fn chesslink(&mut self, cmd: millennium::Command) {
        use millennium::{Command, frame};
        let reply = match cmd {
            Command::Status => Some(millennium::status(&self.board)),
            Command::Version => millennium::encode(&BoardEvent::Version { major: 1, minor: 0 }),
            Command::LedsOff => {
                self.leds.clear();
                Some(frame(b"x"))
            }
            Command::Leds { leds, .. } => {
                self.leds = millennium::lit_squares(&leds);
                Some(frame(b"l"))
            }
            Command::WriteE2rom { address, value } => {
                self.e2rom[usize::from(address)] = value;
                Some(frame(format!("w{address:02X}{value:02X}").as_bytes()))
            }
            Command::ReadE2rom { address } => {
                let value = self.e2rom[usize::from(address)];
                Some(frame(format!("r{address:02X}{value:02X}").as_bytes()))
            }
            Command::Reset => None,
        };
        if let Some(r) = reply {
            self.write(&r);
        }
    }

    /// A DGT Revelation II LED command (`0x60`, size, pattern, from, to, 0).
    fn dgt_leds(&mut self, cmd: &[u8]) {
        let [dgt::SET_LEDS, 4, pattern, from, to, 0] = *cmd else {
            tracing::warn!(bytes = ?cmd, "simulator: malformed DGT LED command");
            return;
        };
        let squares = (from.min(to)..=from.max(to))
            .filter_map(|i| dgt::square_from_index(usize::from(i)).ok());
        for sq in squares {
            self.leds.retain(|s| *s != sq);
            if pattern != 0 {
                self.leds.push(sq);
            }
        }
        self.leds.sort();
    }
}

struct Live {
    slave: TTYPort,
    stop: Arc<AtomicBool>,
    /// Wakes the reader thread, which blocks on the terminal, to stop.
    wake: Arc<Wake>,
    reader: Option<JoinHandle<()>>,
}

/// A simulated board on a pseudo-terminal.
pub struct Simulator {
    shared: Arc<Mutex<Shared>>,
    hand: Vec<Piece>,
    link: Option<PathBuf>,
    live: Option<Live>,
}

/// A DGT clock's message with `runs`'s time running (White's on the left).
fn clock_event(runs: Color) -> BoardEvent {
    let time = SideTime {
        hours: 1,
        minutes: 30,
        seconds: 0,
        flag: false,
    };
    BoardEvent::Clock(ClockMessage::Time(ClockTime {
        right: time,
        left: time,
        running: true,
        right_to_move: runs == Color::Black,
        left_to_move: runs == Color::White,
        no_clock: false,
    }))
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // A panicking reader thread must not take the simulator down with it.
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

impl Simulator {
    /// Opens a pseudo-terminal speaking `protocol` with `board` on it. With
    /// `link`, a symlink there points at the terminal the host should open.
    pub fn new(
        protocol: Protocol,
        board: Board,
        link: Option<PathBuf>,
    ) -> Result<Simulator, SimError> {
        let shared = Arc::new(Mutex::new(Shared {
            protocol,
            board,
            updates: false,
            master: None,
            leds: Vec::new(),
            e2rom: [0; 256],
            held: None,
            // A DGT clock on a DGT board, started: White's time runs.
            clock_runs: (protocol == Protocol::Dgt).then_some(Color::White),
            hello: SIM_HELLO.into(),
        }));
        let mut sim = Simulator {
            shared,
            hand: Vec::new(),
            link,
            live: None,
        };
        sim.plug()?;
        Ok(sim)
    }

    /// The path a host should open (the link if any, else the terminal).
    pub fn path(&self) -> PathBuf {
        match (&self.link, &self.live) {
            (Some(link), _) => link.clone(),
            (None, Some(live)) => PathBuf::from(live.slave.name().unwrap_or_default()),
            (None, None) => PathBuf::new(),
        }
    }

    /// What a peg board says when asked its hello (`V`) from now on, as
    /// another firmware would: a board that says it debounces
    /// (`debounced=10ms`, [`peg::debounced`]) is read without settling.
    /// The simulator itself never debounces: the bounces a plan has are
    /// sent as they are.
    pub fn set_hello(&mut self, text: &str) {
        lock(&self.shared).hello = text.to_owned();
    }

    /// The pieces on the simulated board.
    pub fn board(&self) -> Board {
        lock(&self.shared).board.clone()
    }

    /// The squares the host lit on the board (its LEDs), in square order.
    pub fn leds(&self) -> Vec<Square> {
        lock(&self.shared).leds.clone()
    }

    /// Whether the board is plugged in.
    pub fn is_plugged(&self) -> bool {
        self.live.is_some()
    }

    fn plug(&mut self) -> Result<(), SimError> {
        let pty = |what| move |source| SimError::Pty { what, source };
        let (master, slave) = TTYPort::pair().map_err(pty("open"))?;
        // `pair` opens both ends without close-on-exec: a process started
        // meanwhile (a `tactus serve` under test) would inherit them, hold
        // the terminal open, and unplugging could never hang up. Only
        // close-on-exec duplicates are kept.
        let cloexec = |end: TTYPort| end.try_clone_native().map_err(pty("duplicate"));
        let (master, slave) = (cloexec(master)?, cloexec(slave)?);
        let mut reader = master.try_clone_native().map_err(pty("clone"))?;
        reader
            .set_timeout(Duration::from_millis(20))
            .map_err(pty("set a read timeout on"))?;
        let name = slave.name().ok_or(SimError::NoName)?;
        if let Some(link) = &self.link {
            repoint(link, Path::new(&name))?;
        }
        {
            let mut s = lock(&self.shared);
            s.master = Some(master);
            s.updates = false;
            // A board that was off has its LEDs out.
            s.leds.clear();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let wake = Arc::new(Wake::new().map_err(SimError::Thread)?);
        let shared = self.shared.clone();
        let (stop2, wake2) = (stop.clone(), wake.clone());
        let thread = std::thread::Builder::new()
            .name("board-sim".into())
            .spawn(move || answer_host(reader, shared, stop2, wake2))
            .map_err(SimError::Thread)?;
        self.live = Some(Live {
            slave,
            stop,
            wake,
            reader: Some(thread),
        });
        // A peg or DGT board says hello after power-up.
        let mut s = lock(&self.shared);
        if s.protocol != Protocol::Millennium {
            s.hello();
        }
        drop(s);
        Ok(())
    }

    /// Pulls the plug: both ends of the terminal close.
    pub fn unplug(&mut self) -> Result<(), SimError> {
        let mut live = self.live.take().ok_or(SimError::Unplugged)?;
        live.stop.store(true, Ordering::Relaxed);
        live.wake.wake();
        if let Some(t) = live.reader.take() {
            let _ = t.join();
        }
        lock(&self.shared).master = None;
        drop(live.slave);
        // The device node of an unplugged USB board disappears too.
        if let Some(link) = &self.link {
            let _ = std::fs::remove_file(link);
        }
        Ok(())
    }

    /// Plugs the board back in (a new terminal; the link follows it).
    pub fn replug(&mut self) -> Result<(), SimError> {
        if self.live.is_some() {
            return Err(SimError::Plugged);
        }
        self.plug()
    }

    /// Lifts the piece on `sq` into the hand.
    pub fn lift(&mut self, sq: Square) -> Result<(), SimError> {
        let mut s = lock(&self.shared);
        let piece = s
            .board
            .remove_piece_at(sq)
            .ok_or(SimError::NothingToLift(sq))?;
        self.hand.push(piece);
        let event = match s.protocol {
            Protocol::Peg => BoardEvent::Lifted(sq),
            Protocol::Dgt | Protocol::Millennium => BoardEvent::Field {
                square: sq,
                piece: None,
            },
        };
        s.send(&event);
        Ok(())
    }

    /// Puts a piece on `sq`: `piece` if given (from the hand if it is there,
    /// else from the box, as for a promotion), else the last piece lifted.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) -> Result<(), SimError> {
        let mut s = lock(&self.shared);
        if s.board.piece_at(sq).is_some() {
            return Err(SimError::Occupied(sq));
        }
        let piece = match piece {
            Some(p) => {
                if let Some(i) = self.hand.iter().rposition(|&h| h == p) {
                    self.hand.remove(i);
                }
                p
            }
            None => self.hand.pop().ok_or(SimError::EmptyHand)?,
        };
        s.board.set_piece_at(sq, piece);
        let event = match s.protocol {
            Protocol::Peg => BoardEvent::Put(sq),
            Protocol::Dgt | Protocol::Millennium => BoardEvent::Field {
                square: sq,
                piece: Some(piece),
            },
        };
        s.send(&event);
        Ok(())
    }

    /// Carries out a move given in UCI (`e2e4`, `e7e8q`, `e1g1`) as a player
    /// would: a captured piece is lifted first (or last with
    /// `capture_last`), castling king first, en passant removes the pawn
    /// passed. No chess rules are checked: it is a board, not a referee.
    pub fn play(&mut self, uci: &str, capture_last: bool) -> Result<(), SimError> {
        let (from, to, promotion) = parse_uci(uci)?;
        let board = self.board();
        let piece = board.piece_at(from).ok_or(SimError::NoPiece(from))?;
        let captured = board.piece_at(to).is_some();
        let file_step = i32::from(to.file()) - i32::from(from.file());
        if piece.role == Role::King
            && board.piece_at(to)
                == Some(Piece {
                    color: piece.color,
                    role: Role::Rook,
                })
        {
            return self.castle_onto_rook(from, to, file_step);
        }
        if piece.role == Role::King && file_step.abs() == 2 {
            return self.castle(from, to, file_step);
        }
        if piece.role == Role::Pawn && file_step != 0 && !captured {
            return self.en_passant(from, to);
        }
        let landing = promotion
            .map(|r| Piece {
                color: piece.color,
                role: r,
            })
            .unwrap_or(piece);
        if captured && !capture_last {
            self.lift(to)?;
            self.hand.pop();
        }
        self.lift(from)?;
        if captured && capture_last {
            self.lift(to)?;
            self.hand.pop();
        }
        if promotion.is_some() {
            self.hand.pop();
        }
        self.put(to, Some(landing))
    }

    /// Chess960 castling, written as the king onto its own rook: both
    /// are lifted, then the rook and the king put on their castled
    /// squares (either may be where the other stood).
    fn castle_onto_rook(
        &mut self,
        from: Square,
        to: Square,
        file_step: i32,
    ) -> Result<(), SimError> {
        let (king_to, rook_to) = if file_step > 0 {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        self.lift(from)?;
        self.lift(to)?;
        self.put(Square::from_coords(rook_to, from.rank()), None)?;
        self.put(Square::from_coords(king_to, from.rank()), None)
    }

    /// Castling written as the king's two steps: king first, then the rook.
    fn castle(&mut self, from: Square, to: Square, file_step: i32) -> Result<(), SimError> {
        let (rook_from, rook_to) = if file_step > 0 {
            (
                Square::from_coords(File::H, from.rank()),
                Square::from_coords(File::F, from.rank()),
            )
        } else {
            (
                Square::from_coords(File::A, from.rank()),
                Square::from_coords(File::D, from.rank()),
            )
        };
        self.lift(from)?;
        self.put(to, None)?;
        self.lift(rook_from)?;
        self.put(rook_to, None)
    }

    /// En passant: the pawn moves, then the pawn it passed is taken off.
    fn en_passant(&mut self, from: Square, to: Square) -> Result<(), SimError> {
        self.lift(from)?;
        self.put(to, None)?;
        let passed = Square::from_coords(to.file(), from.rank());
        self.lift(passed)?;
        self.hand.pop();
        Ok(())
    }

    /// Holds back what the board sends until [`Simulator::send_batch`]:
    /// events a board reports in one scan reach the host in one write.
    pub fn begin_batch(&mut self) {
        let mut s = lock(&self.shared);
        if s.held.is_none() {
            s.held = Some(Vec::new());
        }
    }

    /// Sends what was held back since [`Simulator::begin_batch`].
    pub fn send_batch(&mut self) {
        let mut s = lock(&self.shared);
        if let Some(bytes) = s.held.take()
            && !bytes.is_empty()
        {
            s.write(&bytes);
        }
    }

    /// Does what a hand does ([`crate::hands`]).
    pub fn act(&mut self, act: Act) -> Result<(), SimError> {
        match act {
            Act::Lift(sq) => self.lift(sq),
            Act::Put(sq, piece) => self.put(sq, Some(piece)),
            Act::Button(n) => self.button(n),
            Act::Dump => {
                self.scan();
                Ok(())
            }
            Act::Clock(side) => {
                self.press_clock(side);
                Ok(())
            }
        }
    }

    /// The player of `side` presses their side of a DGT clock on the
    /// board: the other side's time runs. The board reports the clock when
    /// its lever moves (a press on the side already stopped moves nothing);
    /// other boards have no reporting clock and send nothing.
    pub fn press_clock(&mut self, side: Color) {
        let mut s = lock(&self.shared);
        if s.protocol != Protocol::Dgt || s.clock_runs == Some(!side) {
            return;
        }
        s.clock_runs = Some(!side);
        s.send(&clock_event(!side));
    }

    /// Carries out `plan` in real time: pauses shorter than
    /// [`hands::BATCH`] send their steps together. Returns the instant just
    /// before the step completing the move was written.
    pub fn perform(&mut self, plan: &Plan) -> Result<std::time::Instant, SimError> {
        self.perform_timed(plan).map(|(completed, _)| completed)
    }

    /// As [`Simulator::perform`]; also returns the instant the clock was
    /// pressed, if the plan presses it.
    pub fn perform_timed(
        &mut self,
        plan: &Plan,
    ) -> Result<(std::time::Instant, Option<std::time::Instant>), SimError> {
        let mut completed = std::time::Instant::now();
        let mut pressed = None;
        self.begin_batch();
        for (i, step) in plan.steps.iter().enumerate() {
            if step.gap >= hands::BATCH {
                self.send_batch();
                std::thread::sleep(step.gap);
                self.begin_batch();
            }
            self.act(step.act)?;
            // Each instant is taken before its bytes are written: the host
            // may answer before this thread runs again, and a stamp taken
            // after would then lie after the answer.
            if i == plan.completes {
                completed = std::time::Instant::now();
                self.send_batch();
                self.begin_batch();
            }
            if Some(i) == plan.pressed {
                pressed = Some(std::time::Instant::now());
                self.send_batch();
                self.begin_batch();
            }
        }
        self.send_batch();
        Ok((completed, pressed))
    }

    /// A bouncing contact: lift and put back on `sq` at once.
    pub fn bounce(&mut self, sq: Square) -> Result<(), SimError> {
        self.lift(sq)?;
        self.put(sq, None)
    }

    /// Sets the pieces on the board (a game resumed from its journal) and
    /// sends the host a full scan of them.
    pub fn set_board(&mut self, board: Board) {
        let mut s = lock(&self.shared);
        s.board = board;
        s.full_scan();
    }

    /// Sends a full scan (peg `S`, DGT board dump) unasked.
    pub fn scan(&mut self) {
        lock(&self.shared).full_scan();
    }

    /// Presses frame button `n` (peg boards have 1..=9).
    pub fn button(&mut self, n: u8) -> Result<(), SimError> {
        let mut s = lock(&self.shared);
        if s.protocol != Protocol::Peg {
            return Err(SimError::NoButtons(s.protocol.name()));
        }
        if !(1..=9).contains(&n) {
            return Err(SimError::BadButton(n));
        }
        s.send(&BoardEvent::Button(n));
        Ok(())
    }

    /// Sends bytes the host cannot read (a line noise burst).
    pub fn garbage(&mut self) {
        let mut s = lock(&self.shared);
        let bytes: &[u8] = match s.protocol {
            Protocol::Peg => b"L z9\n\x01\x02junk\n",
            Protocol::Dgt => &[0x01, 0x02, 0x7F, 0xFF, 0x00, 0x05, 0x01],
            // A status cut short, a parity error, a wrong block check.
            Protocol::Millennium => &[0x73, 0x52, 0xFF, 0x76, 0xB0, 0x31, 0xB0, 0x31, 0x30, 0x30],
        };
        s.write(bytes);
    }

    /// Sends `bytes` as they are (line noise of a test's choosing).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        lock(&self.shared).write(bytes);
    }

    /// Runs one text command (`lift e2`, `put e4 [Q]`, `move e2e4 [last]`,
    /// `bounce e4`, `scan`, `button 1`, `clock white` (a DGT clock's
    /// press by that side), `garbage`, `unplug`, `replug`, `board`,
    /// `leds`). Returns a line to print, if any.
    pub fn command(&mut self, line: &str) -> Result<Option<String>, SimError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let square = |w: Option<&&str>| -> Result<Square, SimError> {
            let w = w.ok_or(SimError::MissingSquare)?;
            w.parse().map_err(|_| SimError::BadSquare(w.to_string()))
        };
        match words.as_slice() {
            [] => {}
            ["lift", rest @ ..] => self.lift(square(rest.first())?)?,
            ["put", rest @ ..] => {
                let piece = match rest.get(1) {
                    None => None,
                    Some(w) => Some(
                        w.chars()
                            .next()
                            .filter(|_| w.len() == 1)
                            .and_then(Piece::from_char)
                            .ok_or_else(|| SimError::BadPieceLetter(w.to_string()))?,
                    ),
                };
                self.put(square(rest.first())?, piece)?
            }
            ["move", uci] => self.play(uci, false)?,
            ["move", uci, "last"] => self.play(uci, true)?,
            ["bounce", rest @ ..] => self.bounce(square(rest.first())?)?,
            ["scan"] => self.scan(),
            ["button", n] => self.button(
                n.parse()
                    .map_err(|_| SimError::BadButtonNumber(n.to_string()))?,
            )?,
            ["clock", "white"] => self.press_clock(Color::White),
            ["clock", "black"] => self.press_clock(Color::Black),
            ["garbage"] => self.garbage(),
            ["unplug"] => self.unplug()?,
            ["replug"] => self.replug()?,
            ["board"] => {
                return Ok(Some(self.board().to_string()));
            }
            ["leds"] => {
                let lit: Vec<String> = self.leds().iter().map(Square::to_string).collect();
                return Ok(Some(
                    format!("leds {}", lit.join(" ")).trim_end().to_string(),
                ));
            }
            _ => return Err(SimError::UnknownCommand(line.to_string())),
        }
        Ok(None)
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.unplug();
    }
}

/// Points the symlink `link` at `target`, replacing it atomically.
fn repoint(link: &Path, target: &Path) -> Result<(), SimError> {
    let tmp = link.with_extension("tactus-tmp");
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)
        .and_then(|()| std::fs::rename(&tmp, link))
        .map_err(|source| SimError::Link {
            link: link.to_path_buf(),
            target: target.to_path_buf(),
            source,
        })
}

/// A move in UCI (`e2e4`, `e7e8q`): its origin, target and promotion.
fn parse_uci(uci: &str) -> Result<(Square, Square, Option<Role>), SimError> {
    let b = uci.as_bytes();
    let sq = |s: Option<&[u8]>| {
        s.and_then(|s| Square::from_ascii(s).ok())
            .ok_or_else(|| SimError::BadMove(uci.to_string()))
    };
    let (from, to) = (sq(b.get(0..2))?, sq(b.get(2..4))?);
    let promotion = match b.get(4..) {
        None | Some([]) => None,
        Some([c]) => Some(
            Role::from_char(char::from(*c))
                .ok_or_else(|| SimError::BadPromotion(uci.to_string(), char::from(*c)))?,
        ),
        Some(_) => return Err(SimError::BadMove(uci.to_string())),
    };
    Ok((from, to, promotion))
}

/// The reader thread: answers the host's requests like a real board. It
/// blocks on the terminal and on `wake` (set when the board is unplugged),
/// so an idle simulated board costs nothing, as a real one does not.
fn answer_host(
    mut reader: TTYPort,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    wake: Arc<Wake>,
) {
    let mut buf = [0u8; 64];
    let mut line = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let Some(n) = read_host(&mut reader, &wake, &mut buf) else {
            continue;
        };
        let mut s = lock(&shared);
        for &b in buf.get(..n).unwrap_or_default() {
            s.answer_byte(b, &mut line);
        }
    }
}

/// Waits for the host's bytes (or `wake`) and reads them into `buf`: how
/// many, or `None` when there are none to answer yet.
fn read_host(reader: &mut TTYPort, wake: &Wake, buf: &mut [u8]) -> Option<usize> {
    match wake::wait(Some(reader.as_raw_fd()), wake, None) {
        Ok(ready) if ready.port => {}
        Ok(_) => return None,
        Err(_) => {
            std::thread::sleep(NO_HOST);
            return None;
        }
    }
    match reader.read(buf) {
        Ok(n) => Some(n),
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => None,
        Err(_) => {
            // No host has the terminal open (or it just closed it): the
            // terminal reads as hung up until one opens it, so look again
            // a little later (woken at once to stop).
            let _ = wake::wait(None, wake, Some(NO_HOST));
            None
        }
    }
}

impl Shared {
    /// Answers the host like a real board, one byte from it at a time;
    /// `line` holds the request read so far.
    fn answer_byte(&mut self, b: u8, line: &mut Vec<u8>) {
        match self.protocol {
            Protocol::Peg => self.peg_byte(b, line),
            Protocol::Millennium => self.millennium_byte(b, line),
            Protocol::Dgt => self.dgt_byte(b, line),
        }
    }

    /// A peg board's host writes lines.
    fn peg_byte(&mut self, b: u8, line: &mut Vec<u8>) {
        if b == b'\n' {
            match peg::parse_request(line) {
                Some(peg::HostRequest::Scan) => self.full_scan(),
                Some(peg::HostRequest::Hello) => self.hello(),
                None => tracing::warn!(line = ?line, "simulator: unknown host request"),
            }
            line.clear();
        } else if line.len() < peg::MAX_LINE {
            line.push(b);
        }
    }

    /// ChessLink: 7-bit characters (a parity bit dropped), commands of a
    /// length their first letter says.
    fn millennium_byte(&mut self, b: u8, line: &mut Vec<u8>) {
        let c = b & 0x7F;
        if !millennium::parity_ok(b) {
            tracing::warn!(byte = b, "simulator: parity error");
            line.clear();
            return;
        }
        if line.is_empty() && millennium::command_len(c).is_none() {
            tracing::warn!(byte = b, "simulator: unknown host request");
            return;
        }
        line.push(c);
        let want = line
            .first()
            .and_then(|&k| millennium::command_len(k))
            .unwrap_or(0);
        if line.len() >= want {
            match millennium::parse_command(line) {
                Some(cmd) => self.chesslink(cmd),
                None => {
                    tracing::warn!(line = ?line, "simulator: bad ChessLink command")
                }
            }
            line.clear();
        }
    }

    /// DGT: one-byte requests, and the LED command of several bytes.
    fn dgt_byte(&mut self, b: u8, line: &mut Vec<u8>) {
        if !line.is_empty() || b == dgt::SET_LEDS {
            // A multi-byte command: 0x60, its size, then that many bytes.
            line.push(b);
            let size = line.get(1).map_or(usize::MAX, |&n| usize::from(n) + 2);
            if line.len() >= size || line.len() > 8 {
                let cmd = std::mem::take(line);
                self.dgt_leds(&cmd);
            }
            return;
        }
        match b {
            dgt::SEND_BOARD => self.full_scan(),
            dgt::SEND_VERSION => self.hello(),
            dgt::SEND_SERIAL => self.send(&BoardEvent::SerialNumber("SIM01".into())),
            dgt::SEND_UPDATES | dgt::SEND_UPDATES_BOARD | dgt::SEND_UPDATES_NICE => {
                self.updates = true
            }
            dgt::RESET => self.updates = false,
            _ => tracing::warn!(byte = b, "simulator: unknown host request"),
        }
    }
}
