//! Where a board is and how its bytes travel: a serial device on this
//! computer, or a serial port another computer serves over the network
//! (ser2net on a table computer): raw TCP, or telnet with RFC 2217 so that
//! tactus sets the far port's speed and framing itself.
//!
//! A link is only a byte pipe with a descriptor to wait on; the driver
//! thread in `serial.rs` is the same for all three kinds, and so are its
//! reconnects.
//!
//! RFC 2217: no maintained crate does the client side (`rfc2217-rs` 0.1.0,
//! one release in 2022, is a server and a parser), and the subset needed is
//! small: telnet option negotiation (BINARY both ways, SUPPRESS-GO-AHEAD,
//! COM-PORT-OPTION), the four settings SET-BAUDRATE, SET-DATASIZE,
//! SET-PARITY and SET-STOPSIZE, and IAC doubling of data both ways.

use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Where a board is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Port {
    /// A serial device (or pseudo-terminal) on this computer.
    Serial(PathBuf),
    /// Raw TCP: the far end passes bytes as they are (ser2net's `tcp`
    /// accepter); the far port's settings are the far end's business.
    Tcp { host: String, port: u16 },
    /// Telnet with RFC 2217 (ser2net's `telnet(rfc2217)` accepter): tactus
    /// sets the far port's speed and framing.
    Rfc2217 { host: String, port: u16 },
}

impl Port {
    /// Whether the board is reached over the network.
    pub fn is_network(&self) -> bool {
        !matches!(self, Port::Serial(_))
    }
}

impl From<PathBuf> for Port {
    fn from(p: PathBuf) -> Port {
        Port::Serial(p)
    }
}

impl From<&Path> for Port {
    fn from(p: &Path) -> Port {
        Port::Serial(p.to_path_buf())
    }
}

/// What a port is written as.
pub const PORT_FORMS: &str = "a device path, `tcp://HOST:PORT` or `rfc2217://HOST:PORT`";

/// Why a port is not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortError {
    #[error("no port given: expected {PORT_FORMS}")]
    Empty,
    #[error("`{given}`: expected {scheme}://HOST:PORT (a port 1 to 65535)")]
    HostPort { given: String, scheme: String },
    #[error("`{given}`: unknown scheme `{scheme}`: expected {PORT_FORMS}")]
    Scheme { given: String, scheme: String },
}

impl FromStr for Port {
    type Err = PortError;
    fn from_str(s: &str) -> Result<Port, PortError> {
        let Some((scheme, rest)) = s.split_once("://") else {
            if s.is_empty() {
                return Err(PortError::Empty);
            }
            return Ok(Port::Serial(PathBuf::from(s)));
        };
        let (host, port) = host_port(rest).ok_or_else(|| PortError::HostPort {
            given: s.to_string(),
            scheme: scheme.to_string(),
        })?;
        match scheme {
            "tcp" => Ok(Port::Tcp { host, port }),
            "rfc2217" => Ok(Port::Rfc2217 { host, port }),
            _ => Err(PortError::Scheme {
                given: s.to_string(),
                scheme: scheme.to_string(),
            }),
        }
    }
}

/// `HOST:PORT` or `[V6]:PORT`.
fn host_port(s: &str) -> Option<(String, u16)> {
    let (host, port) = s.rsplit_once(':')?;
    let port: u16 = port.parse().ok().filter(|p| *p > 0)?;
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.strip_suffix(']')?,
        None if host.contains(':') => return None,
        None => host,
    };
    let ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:%".contains(&b));
    ok.then(|| (host.to_string(), port))
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hp = |f: &mut fmt::Formatter<'_>, scheme: &str, host: &str, port: u16| {
            if host.contains(':') {
                write!(f, "{scheme}://[{host}]:{port}")
            } else {
                write!(f, "{scheme}://{host}:{port}")
            }
        };
        match self {
            Port::Serial(p) => write!(f, "{}", p.display()),
            Port::Tcp { host, port } => hp(f, "tcp", host, *port),
            Port::Rfc2217 { host, port } => hp(f, "rfc2217", host, *port),
        }
    }
}

/// Parity of a serial frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parity {
    None,
    Odd,
    Even,
}

/// Speed and framing of a serial line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Framing {
    pub baud: u32,
    /// 7 or 8.
    pub data_bits: u8,
    pub parity: Parity,
    /// 1 or 2.
    pub stop_bits: u8,
}

impl Framing {
    /// 8 data bits, no parity, 1 stop bit.
    pub fn n81(baud: u32) -> Framing {
        Framing {
            baud,
            data_bits: 8,
            parity: Parity::None,
            stop_bits: 1,
        }
    }

    /// 7 data bits, odd parity, 1 stop bit.
    pub fn o71(baud: u32) -> Framing {
        Framing {
            baud,
            data_bits: 7,
            parity: Parity::Odd,
            stop_bits: 1,
        }
    }
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = match self.parity {
            Parity::None => 'N',
            Parity::Odd => 'O',
            Parity::Even => 'E',
        };
        write!(f, "{} {}{p}{}", self.baud, self.data_bits, self.stop_bits)
    }
}

/// An open byte pipe to a board. The driver waits on [`Link::fd`] and
/// reads once it is readable; `read` itself waits at most the poll time
/// and then fails with `TimedOut` or `WouldBlock`; `Ok(0)` is the end
/// (hang-up).
///
/// A read that runs out of time fails with `TimedOut` or `WouldBlock`
/// only when nothing arrived during the whole wait (the driver then knows
/// the board sent nothing until the wait's end); `Interrupted` says only
/// that no data is there now.
pub trait Link: Send {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize>;
    /// The descriptor the driver waits on for bytes (or a hang-up) before
    /// it reads (`wake::wait`).
    fn fd(&self) -> RawFd;
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    /// How long the next reads wait at most (zero: only look).
    fn set_timeout(&mut self, wait: Duration) -> std::io::Result<()>;
    /// Whether data already taken from the OS waits in the link's own
    /// buffer (the next read returns it without looking at the OS).
    fn holds_data(&self) -> bool {
        false
    }
}

struct SerialLink(serialport::TTYPort);

impl Link for SerialLink {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
    fn fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        Write::write_all(&mut self.0, bytes)
    }
    fn set_timeout(&mut self, wait: Duration) -> std::io::Result<()> {
        serialport::SerialPort::set_timeout(&mut self.0, wait).map_err(std::io::Error::from)
    }
}

struct TcpLink(TcpStream);

impl Link for TcpLink {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
    fn fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        Write::write_all(&mut self.0, bytes)
    }
    fn set_timeout(&mut self, wait: Duration) -> std::io::Result<()> {
        // A zero timeout would mean "block forever".
        self.0
            .set_read_timeout(Some(wait.max(Duration::from_millis(1))))
    }
}

/// How long connecting to a board's host may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long an RFC 2217 server has to agree to the port settings.
pub const NEGOTIATE_TIMEOUT: Duration = Duration::from_secs(2);

/// Opens `port` with `framing`; reads wait at most `poll`.
pub fn open(port: &Port, framing: Framing, poll: Duration) -> std::io::Result<Box<dyn Link>> {
    match port {
        Port::Serial(path) => {
            let data_bits = match framing.data_bits {
                7 => serialport::DataBits::Seven,
                _ => serialport::DataBits::Eight,
            };
            let parity = match framing.parity {
                Parity::None => serialport::Parity::None,
                Parity::Odd => serialport::Parity::Odd,
                Parity::Even => serialport::Parity::Even,
            };
            let stop_bits = match framing.stop_bits {
                2 => serialport::StopBits::Two,
                _ => serialport::StopBits::One,
            };
            let tty = serialport::new(path.to_string_lossy(), framing.baud)
                .data_bits(data_bits)
                .parity(parity)
                .stop_bits(stop_bits)
                .timeout(poll)
                .open_native()?;
            Ok(Box::new(SerialLink(tty)))
        }
        Port::Tcp { host, port } => Ok(Box::new(TcpLink(connect(host, *port, poll)?))),
        Port::Rfc2217 { host, port } => {
            let stream = connect(host, *port, poll)?;
            Ok(Box::new(Rfc2217Link::negotiate(stream, framing)?))
        }
    }
}

fn connect(host: &str, port: u16, poll: Duration) -> std::io::Result<TcpStream> {
    let mut last = None;
    for addr in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
            Ok(stream) => {
                stream.set_nodelay(true)?;
                // A zero timeout would mean "block forever".
                stream.set_read_timeout(Some(poll.max(Duration::from_millis(1))))?;
                stream.set_write_timeout(Some(CONNECT_TIMEOUT))?;
                keepalive(&stream);
                return Ok(stream);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(ErrorKind::NotFound, format!("{host} has no address"))
    }))
}

/// A table computer that loses power sends no FIN: TCP keepalive notices
/// such a silent peer within about ten seconds, and a write that stays
/// unacknowledged fails after as long.
fn keepalive(stream: &TcpStream) {
    #[cfg(target_os = "linux")]
    {
        let fd = stream.as_raw_fd();
        let set = |level: libc::c_int, name: libc::c_int, value: libc::c_int| {
            // SAFETY: a valid socket descriptor and a c_int option value of
            // the size given.
            unsafe {
                libc::setsockopt(
                    fd,
                    level,
                    name,
                    (&value as *const libc::c_int).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                )
            }
        };
        set(libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1);
        set(libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, 4);
        set(libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, 2);
        set(libc::IPPROTO_TCP, libc::TCP_KEEPCNT, 3);
        set(libc::IPPROTO_TCP, libc::TCP_USER_TIMEOUT, 10_000);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = stream;
}

/// Telnet bytes (RFC 854) and the options used.
pub mod telnet {
    pub const IAC: u8 = 255;
    pub const DONT: u8 = 254;
    pub const DO: u8 = 253;
    pub const WONT: u8 = 252;
    pub const WILL: u8 = 251;
    pub const SB: u8 = 250;
    pub const SE: u8 = 240;
    pub const BINARY: u8 = 0;
    pub const SGA: u8 = 3;
    /// RFC 2217 COM-PORT-OPTION.
    pub const COM_PORT: u8 = 44;
    pub const SET_BAUDRATE: u8 = 1;
    pub const SET_DATASIZE: u8 = 2;
    pub const SET_PARITY: u8 = 3;
    pub const SET_STOPSIZE: u8 = 4;
    /// A server's answer to a client command is the command plus this.
    pub const SERVER_OFFSET: u8 = 100;
}

use telnet::*;

/// Data bytes as telnet sends them: every 0xFF doubled.
pub fn escape(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        out.push(b);
        if b == IAC {
            out.push(IAC);
        }
    }
}

/// One RFC 2217 client command: `IAC SB COM-PORT-OPTION cmd value IAC SE`.
pub fn com_port_command(cmd: u8, value: &[u8]) -> Vec<u8> {
    let mut out = vec![IAC, SB, COM_PORT, cmd];
    escape(value, &mut out);
    out.extend([IAC, SE]);
    out
}

/// The four settings of `framing` as RFC 2217 commands.
pub fn settings(framing: Framing) -> Vec<u8> {
    let parity = match framing.parity {
        Parity::None => 1,
        Parity::Odd => 2,
        Parity::Even => 3,
    };
    let mut out = com_port_command(SET_BAUDRATE, &framing.baud.to_be_bytes());
    out.extend(com_port_command(SET_DATASIZE, &[framing.data_bits]));
    out.extend(com_port_command(SET_PARITY, &[parity]));
    out.extend(com_port_command(SET_STOPSIZE, &[framing.stop_bits]));
    out
}

/// The longest subnegotiation kept (RFC 2217's are at most a few bytes).
const MAX_SB: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Data,
    Iac,
    Option(u8),
    Sub,
    SubIac,
}

/// The receiving side of a telnet client that wants BINARY both ways,
/// SUPPRESS-GO-AHEAD and COM-PORT-OPTION, and refuses everything else:
/// separates data from commands, answers the server's requests (each at most
/// once, so two peers can never loop), and notes RFC 2217 answers.
#[derive(Debug, Default)]
pub struct TelnetReader {
    state: State,
    sub: Vec<u8>,
    answered: Vec<(u8, u8)>,
    /// Whether the server agreed to COM-PORT-OPTION (`DO`), or refused it.
    pub com_port: Option<bool>,
    /// Bit `n` set: the server answered setting command `n` (1..=4).
    pub acknowledged: u8,
    /// What the server said each setting now is (command, value bytes).
    pub settings_seen: Vec<(u8, Vec<u8>)>,
}

impl TelnetReader {
    /// The client's opening requests.
    pub fn opening() -> Vec<u8> {
        vec![
            IAC, WILL, BINARY, IAC, DO, BINARY, IAC, WILL, SGA, IAC, DO, SGA, IAC, WILL, COM_PORT,
        ]
    }

    /// Splits `bytes` into data (appended to `data`) and commands; answers
    /// to the server go to `reply`.
    pub fn feed(&mut self, bytes: &[u8], data: &mut Vec<u8>, reply: &mut Vec<u8>) {
        for &b in bytes {
            self.state = match self.state {
                State::Data if b == IAC => State::Iac,
                State::Data => {
                    data.push(b);
                    State::Data
                }
                State::Iac => match b {
                    IAC => {
                        data.push(IAC);
                        State::Data
                    }
                    WILL | WONT | DO | DONT => State::Option(b),
                    SB => {
                        self.sub.clear();
                        State::Sub
                    }
                    // NOP, GA, data mark, break...: nothing to do.
                    _ => State::Data,
                },
                State::Option(verb) => {
                    self.negotiate(verb, b, reply);
                    State::Data
                }
                State::Sub if b == IAC => State::SubIac,
                State::Sub => {
                    if self.sub.len() < MAX_SB {
                        self.sub.push(b);
                    }
                    State::Sub
                }
                State::SubIac => match b {
                    SE => {
                        self.subnegotiation();
                        State::Data
                    }
                    IAC => {
                        if self.sub.len() < MAX_SB {
                            self.sub.push(IAC);
                        }
                        State::Sub
                    }
                    // A malformed end: drop the subnegotiation.
                    _ => State::Data,
                },
            };
        }
    }

    fn negotiate(&mut self, verb: u8, option: u8, reply: &mut Vec<u8>) {
        let wanted = matches!(option, BINARY | SGA | COM_PORT);
        if option == COM_PORT {
            match verb {
                DO => self.com_port = Some(true),
                DONT => self.com_port = Some(false),
                _ => {}
            }
        }
        // Our WILL and DO went out first: the server's DO/WILL of a wanted
        // option is its agreement, and refusals need no answer.
        let answer = match verb {
            DO if !wanted => WONT,
            WILL if !wanted => DONT,
            _ => return,
        };
        if !self.answered.contains(&(verb, option)) && self.answered.len() < 64 {
            self.answered.push((verb, option));
            reply.extend([IAC, answer, option]);
        }
    }

    fn subnegotiation(&mut self) {
        if let [COM_PORT, cmd, value @ ..] = self.sub.as_slice()
            && let Some(setting) = cmd.checked_sub(SERVER_OFFSET)
            && (SET_BAUDRATE..=SET_STOPSIZE).contains(&setting)
        {
            self.acknowledged |= 1 << setting;
            if self.settings_seen.len() < 16 {
                self.settings_seen.push((setting, value.to_vec()));
            }
        }
    }
}

/// The most data kept from before the port's settings are confirmed. A
/// board says a few dozen bytes at a time and the driver asks for a full
/// scan once connected; what came before the port was set is at the wrong
/// speed anyway. Beyond this it is counted and dropped, so a server that
/// floods during the set-up costs neither memory nor time.
pub const MAX_PENDING: usize = 4096;

/// A telnet connection to an RFC 2217 server.
struct Rfc2217Link {
    stream: TcpStream,
    telnet: TelnetReader,
    /// Data that arrived during the negotiation, or the rest of the last
    /// socket read: `pending[taken..]` is still to be handed out (an offset,
    /// so that a read never shifts the buffer).
    pending: Vec<u8>,
    taken: usize,
    /// Data bytes dropped during the negotiation (beyond [`MAX_PENDING`]).
    dropped: u64,
    raw: Vec<u8>,
}

impl Rfc2217Link {
    /// Negotiates COM-PORT-OPTION and sets `framing` on the far port,
    /// waiting (a little) for the server's agreement.
    fn negotiate(mut stream: TcpStream, framing: Framing) -> std::io::Result<Rfc2217Link> {
        Write::write_all(&mut stream, &TelnetReader::opening())?;
        let mut link = Rfc2217Link {
            stream,
            telnet: TelnetReader::default(),
            pending: Vec::new(),
            taken: 0,
            dropped: 0,
            raw: vec![0; 512],
        };
        let give_up = Instant::now() + NEGOTIATE_TIMEOUT;
        let mut sent_settings = false;
        loop {
            if !sent_settings && link.telnet.com_port.is_some() {
                if link.telnet.com_port == Some(false) {
                    return Err(std::io::Error::other(
                        "the server refuses RFC 2217 (COM-PORT-OPTION): is it a raw tcp port?",
                    ));
                }
                Write::write_all(&mut link.stream, &settings(framing))?;
                sent_settings = true;
            }
            // Bits 1 to 4: all four settings answered.
            if sent_settings && link.telnet.acknowledged & 0b1_1110 == 0b1_1110 {
                tracing::debug!(settings = ?link.telnet.settings_seen, "RFC 2217 port set");
                if link.dropped > 0 {
                    tracing::warn!(
                        dropped = link.dropped,
                        "RFC 2217: the server sent more data than the set-up keeps before the port was set; dropped"
                    );
                }
                return Ok(link);
            }
            if Instant::now() >= give_up {
                return Err(std::io::Error::new(
                    ErrorKind::TimedOut,
                    if sent_settings {
                        "the server did not confirm the port settings (RFC 2217)"
                    } else {
                        "the server did not answer COM-PORT-OPTION (RFC 2217): is it a raw tcp port?"
                    },
                ));
            }
            let mut data = Vec::new();
            match link.read_raw(&mut data) {
                Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
                Ok(_) => link.keep(&data),
                Err(e) if is_timeout(&e) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Keeps set-up data up to [`MAX_PENDING`]; counts the rest.
    fn keep(&mut self, data: &[u8]) {
        let room = MAX_PENDING.saturating_sub(self.pending.len());
        let kept = data.len().min(room);
        self.pending
            .extend_from_slice(data.get(..kept).unwrap_or_default());
        self.dropped = self.dropped.saturating_add((data.len() - kept) as u64);
    }

    /// Reads once from the socket; data to `data`, answers sent at once.
    /// Returns the number of raw bytes read (0: end of stream).
    fn read_raw(&mut self, data: &mut Vec<u8>) -> std::io::Result<usize> {
        let n = self.stream.read(&mut self.raw)?;
        let mut reply = Vec::new();
        self.telnet
            .feed(self.raw.get(..n).unwrap_or_default(), data, &mut reply);
        if !reply.is_empty() {
            Write::write_all(&mut self.stream, &reply)?;
        }
        Ok(n)
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
    )
}

impl Link for Rfc2217Link {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.holds_data() {
            let mut data = std::mem::take(&mut self.pending);
            data.clear();
            self.taken = 0;
            if self.read_raw(&mut data)? == 0 {
                return Ok(0);
            }
            self.pending = data;
        }
        let rest = self.pending.get(self.taken..).unwrap_or_default();
        if rest.is_empty() {
            // Only telnet commands arrived: no data now (not a whole wait
            // without any: see `Link`).
            return Err(ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.taken += n;
        Ok(n)
    }

    fn set_timeout(&mut self, wait: Duration) -> std::io::Result<()> {
        self.stream
            .set_read_timeout(Some(wait.max(Duration::from_millis(1))))
    }

    fn fd(&self) -> RawFd {
        self.stream.as_raw_fd()
    }

    fn holds_data(&self) -> bool {
        self.taken < self.pending.len()
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let mut out = Vec::with_capacity(bytes.len() + 4);
        escape(bytes, &mut out);
        Write::write_all(&mut self.stream, &out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_parse_and_print() {
        for s in [
            "/dev/ttyUSB0",
            "tcp://table7.local:2001",
            "rfc2217://192.168.1.20:3001",
            "tcp://[::1]:2000",
        ] {
            assert_eq!(s.parse::<Port>().unwrap().to_string(), s);
        }
        assert_eq!(
            "rfc2217://pi:7000".parse::<Port>(),
            Ok(Port::Rfc2217 {
                host: "pi".into(),
                port: 7000
            })
        );
        for bad in [
            "",
            "tcp://",
            "tcp://host",
            "tcp://host:0",
            "tcp://host:99999",
            "tcp://:2000",
            "tcp://a b:1",
            "tcp://::1:2000",
            "udp://host:1",
        ] {
            assert!(bad.parse::<Port>().is_err(), "{bad:?}");
        }
        let e = "ftp://x:1".parse::<Port>().unwrap_err();
        assert!(matches!(&e, PortError::Scheme { scheme, .. } if scheme == "ftp"));
        assert!(e.to_string().contains("unknown scheme"), "{e}");
        assert_eq!("".parse::<Port>(), Err(PortError::Empty));
    }

    #[test]
    fn data_is_escaped_and_unescaped() {
        let mut out = Vec::new();
        escape(&[1, 0xFF, 2, 0xFF, 0xFF], &mut out);
        assert_eq!(out, [1, 0xFF, 0xFF, 2, 0xFF, 0xFF, 0xFF, 0xFF]);
        let mut t = TelnetReader::default();
        let (mut data, mut reply) = (Vec::new(), Vec::new());
        // Any chunking.
        for b in &out {
            t.feed(&[*b], &mut data, &mut reply);
        }
        assert_eq!(data, [1, 0xFF, 2, 0xFF, 0xFF]);
        assert!(reply.is_empty());
    }

    #[test]
    fn negotiation_is_answered_once_and_settings_are_noted() {
        let mut t = TelnetReader::default();
        let (mut data, mut reply) = (Vec::new(), Vec::new());
        let mut server = vec![
            IAC, DO, COM_PORT, IAC, WILL, BINARY, IAC, DO, 24, IAC, WILL, 1,
        ];
        server.extend([b'a', IAC, DO, 24, b'b']);
        // SET-BAUDRATE answer with a 0xFF byte doubled inside.
        server.extend([IAC, SB, COM_PORT, 101, 0, 0, 0x96, IAC, IAC, IAC, SE]);
        server.extend([IAC, SB, COM_PORT, 102, 7, IAC, SE]);
        t.feed(&server, &mut data, &mut reply);
        assert_eq!(data, b"ab");
        assert_eq!(t.com_port, Some(true));
        // Terminal type (24) refused once, echo (1) refused once.
        assert_eq!(reply, [IAC, WONT, 24, IAC, DONT, 1]);
        assert_eq!(t.acknowledged, 0b110);
        assert_eq!(t.settings_seen[0], (1, vec![0, 0, 0x96, 0xFF]));
        // Garbage and an overlong subnegotiation stay bounded.
        let mut junk = vec![IAC, SB];
        junk.extend(std::iter::repeat_n(7, 10_000));
        t.feed(&junk, &mut data, &mut reply);
        assert!(t.sub.len() <= MAX_SB);
        t.feed(&[IAC, SE, b'c'], &mut data, &mut reply);
        assert_eq!(data, b"abc");
    }

    #[test]
    fn settings_are_encoded_as_rfc_2217_says() {
        let s = settings(Framing::o71(38400));
        assert_eq!(
            s,
            [
                IAC, SB, COM_PORT, 1, 0, 0, 0x96, 0x00, IAC, SE, // 38400
                IAC, SB, COM_PORT, 2, 7, IAC, SE, // 7 data bits
                IAC, SB, COM_PORT, 3, 2, IAC, SE, // odd
                IAC, SB, COM_PORT, 4, 1, IAC, SE, // 1 stop bit
            ]
        );
        assert_eq!(Framing::n81(9600).to_string(), "9600 8N1");
    }
}
