//! A braille display through BrlAPI, brltty's client library (Debian's
//! `libbrlapi-dev`): a thin binding of the calls tactus needs, each on a
//! connection handle of its own (the `brlapi__` functions), so that several
//! tables may each have a display.
//!
//! The library's default exception handler aborts the process on an error
//! the server reports asynchronously; every connection here replaces it
//! with one that only logs, so a display never takes the server down.
//!
//! The server is a peer like any other, and the library trusts it: it
//! waits for every answer for ever, sizes stack arrays by the display size
//! the server reports, and leaves its socket open when the server hangs up
//! after the version packet. So a connection here is opened on a thread of
//! its own within [`CONNECT_LIMIT`] (past it the socket is shut down, which
//! ends the library's wait), a failed open closes the socket the library
//! left, and the size is checked ([`MAX_CELLS`]) before anything is written.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};

#[repr(C)]
struct ConnectionSettings {
    auth: *const c_char,
    host: *const c_char,
}

#[repr(C)]
struct WriteArguments {
    display_number: c_int,
    region_begin: c_uint,
    region_size: c_int,
    text: *const c_char,
    text_size: c_int,
    and_mask: *const u8,
    or_mask: *const u8,
    cursor: c_int,
    charset: *const c_char,
}

#[repr(C)]
struct ErrorInfo {
    brlerrno: c_int,
    libcerrno: c_int,
    gaierrno: c_int,
    errfun: *const c_char,
}

type ExceptionHandler = unsafe extern "C" fn(
    handle: *mut c_void,
    error: c_int,
    kind: u32,
    packet: *const c_void,
    size: usize,
);

#[link(name = "brlapi")]
unsafe extern "C" {
    fn brlapi_getHandleSize() -> usize;
    fn brlapi__openConnection(
        handle: *mut c_void,
        desired: *const ConnectionSettings,
        actual: *mut ConnectionSettings,
    ) -> c_int;
    fn brlapi__closeConnection(handle: *mut c_void);
    fn brlapi__getFileDescriptor(handle: *mut c_void) -> c_int;
    fn brlapi__enterTtyModeWithPath(
        handle: *mut c_void,
        ttys: *const c_int,
        count: c_int,
        driver: *const c_char,
    ) -> c_int;
    fn brlapi__getDisplaySize(handle: *mut c_void, x: *mut c_uint, y: *mut c_uint) -> c_int;
    fn brlapi__write(handle: *mut c_void, arguments: *const WriteArguments) -> c_int;
    fn brlapi__writeDots(handle: *mut c_void, dots: *const u8) -> c_int;
    fn brlapi__readKeyWithTimeout(handle: *mut c_void, timeout_ms: c_int, code: *mut u64) -> c_int;
    fn brlapi__acceptKeys(
        handle: *mut c_void,
        kind: c_int,
        keys: *const u64,
        count: c_uint,
    ) -> c_int;
    fn brlapi__setExceptionHandler(
        handle: *mut c_void,
        handler: Option<ExceptionHandler>,
    ) -> Option<ExceptionHandler>;
    fn brlapi_error_location() -> *mut ErrorInfo;
    fn brlapi_strerror_r(error: *const ErrorInfo, buf: *mut c_char, len: usize) -> usize;
}

/// The most cells a display may report (width × height). Real displays
/// have at most a few hundred (80 in a line; a multi-line tactile tablet
/// some 400); the library puts arrays of this many cells on the stack.
pub const MAX_CELLS: usize = 1024;

/// How long connecting (the handshake, taking the terminal, the size) may
/// take before the attempt is given up.
pub const CONNECT_LIMIT: Duration = Duration::from_secs(3);

/// Attempts whose thread is still inside the library after its time limit
/// (a host that never answers the TCP handshake is only given up by the
/// kernel, after about two minutes): past this many, no new one starts.
pub const MAX_STUCK: usize = 2;

static STUCK: AtomicUsize = AtomicUsize::new(0);

/// `BRLAPI_DISPLAY_DEFAULT`.
const DISPLAY_DEFAULT: c_int = -1;
/// `BRLAPI_CURSOR_OFF`.
const CURSOR_OFF: c_int = 0;
/// `brlapi_rangeType_all`.
const RANGE_ALL: c_int = 0;

/// `BRLAPI_KEY_TYPE_MASK` and `BRLAPI_KEY_TYPE_CMD`.
const KEY_TYPE_MASK: u64 = 0xE000_0000;
const KEY_TYPE_CMD: u64 = 0x2000_0000;
/// `BRLAPI_KEY_CMD_BLK_MASK`, `BRLAPI_KEY_CMD_ARG_MASK`.
const KEY_CMD_BLK_MASK: u64 = 0x1FFF_0000;
const KEY_CMD_ARG_MASK: u64 = 0xFFFF;

/// A key pressed on the display, as brltty's commands name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A routing key over a cell (0 = the first).
    Route(u16),
    /// Line up / line down (`LNUP`, `LNDN`).
    LineUp,
    LineDown,
    /// Panning a full window left / right (`FWINLT`, `FWINRT`).
    PanLeft,
    PanRight,
    /// Top / bottom of the screen (`TOP`, `BOT`).
    Top,
    Bottom,
    /// The cursor home (`HOME`) or return (`RETURN`).
    Home,
    /// Any other command, by block and argument.
    Other(u32, u16),
}

impl Key {
    /// The key of a BrlAPI key code of command type, if it is one.
    pub fn from_code(code: u64) -> Option<Key> {
        if code & KEY_TYPE_MASK != KEY_TYPE_CMD {
            return None;
        }
        let block = ((code & KEY_CMD_BLK_MASK) >> 16) as u32;
        let arg = (code & KEY_CMD_ARG_MASK) as u16;
        Some(match (block, arg) {
            (1, cell) => Key::Route(cell),
            (0, 1) => Key::LineUp,
            (0, 2) => Key::LineDown,
            (0, 9) => Key::Top,
            (0, 10) => Key::Bottom,
            (0, 23) => Key::PanLeft,
            (0, 24) => Key::PanRight,
            (0, 29) | (0, 31) => Key::Home,
            (b, a) => Key::Other(b, a),
        })
    }
}

/// Why a display could not be reached or written to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrlapiError {
    /// A host, key file or text with a NUL character, which no C string
    /// can carry.
    #[error("{0} contains a NUL character")]
    Nul(&'static str),
    /// BrlAPI refused: `call` is the library function, `message` its own
    /// words (`brlapi_strerror`).
    #[error("{call}: {message}")]
    Api { call: &'static str, message: String },
    /// The server reported a size no display has.
    #[error("the display reports {width}×{height} cells (at most {MAX_CELLS} are accepted)")]
    Size { width: u32, height: u32 },
    /// The server did not finish the handshake in time.
    #[error("no answer within {} s", CONNECT_LIMIT.as_secs())]
    Timeout,
    /// Earlier attempts are still stuck in the library.
    #[error("{MAX_STUCK} earlier attempts are still waiting for the host")]
    Stuck,
    /// The thread that connects could not be started.
    #[error("cannot start the connecting thread: {0}")]
    Thread(String),
}

/// Whether `width` × `height` is a size a real display can have.
pub fn size_ok(width: u32, height: u32) -> bool {
    width >= 1
        && height >= 1
        && (width as usize)
            .checked_mul(height as usize)
            .is_some_and(|cells| cells <= MAX_CELLS)
}

/// What BrlAPI said went wrong in `call`.
fn last_error(call: &'static str) -> BrlapiError {
    let mut buf = [0 as c_char; 256];
    // SAFETY: the error location is thread-local and always valid; the
    // buffer's length is passed.
    let message = unsafe {
        brlapi_strerror_r(brlapi_error_location(), buf.as_mut_ptr(), buf.len());
        CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
    };
    BrlapiError::Api { call, message }
}

unsafe extern "C" fn log_exception(
    _handle: *mut c_void,
    error: c_int,
    kind: u32,
    _packet: *const c_void,
    _size: usize,
) {
    tracing::warn!("braille display: BrlAPI reported error {error} on a packet of type {kind}");
}

/// One connection to a BrlAPI server, in TTY mode (the client owns the
/// display while it writes) with every key delivered to it.
pub struct Connection {
    /// The library's handle: `brlapi_getHandleSize()` bytes, kept aligned.
    /// Its buffer never moves (the connecting thread's watcher holds its
    /// address).
    handle: Vec<u128>,
    /// Whether `brlapi_openConnection` succeeded (so closing is the
    /// library's business).
    opened: bool,
    width: usize,
    height: usize,
}

// The handle is only used by the thread that owns the connection.
unsafe impl Send for Connection {}

impl Connection {
    /// Connects to `host` (BrlAPI's form: `HOST:N` is TCP port 4101 + N,
    /// `:N` the local socket N; `None`: the local default or `BRLAPI_HOST`)
    /// with the key file `auth` (`None`: the default or `BRLAPI_AUTH`).
    ///
    /// Gives up after [`CONNECT_LIMIT`]; refuses a display larger than
    /// [`MAX_CELLS`].
    pub fn open(host: Option<&str>, auth: Option<&str>) -> Result<Connection, BrlapiError> {
        let host_c = host
            .map(CString::new)
            .transpose()
            .map_err(|_| BrlapiError::Nul("the BrlAPI host"))?;
        let auth_c = auth
            .map(CString::new)
            .transpose()
            .map_err(|_| BrlapiError::Nul("the BrlAPI key file"))?;
        if STUCK.load(Ordering::Relaxed) >= MAX_STUCK {
            return Err(BrlapiError::Stuck);
        }
        // SAFETY: no arguments.
        let size = unsafe { brlapi_getHandleSize() };
        let mut conn = Connection {
            handle: vec![0u128; size.div_ceil(16).max(1)],
            opened: false,
            width: 0,
            height: 0,
        };
        let address = conn.h() as usize;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("brlapi-connect".into())
            .spawn(move || {
                let result = conn.handshake(host_c, auth_c).map(|()| conn);
                // A receiver gone (the attempt was given up) drops the
                // connection here, which closes it.
                let _ = tx.send(result);
            })
            .map_err(|e| BrlapiError::Thread(e.to_string()))?;
        match rx.recv_timeout(CONNECT_LIMIT) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(BrlapiError::Timeout),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        // Past the limit: end the library's wait by shutting the socket
        // down (the connecting thread then fails and closes it). The handle
        // is alive until the thread's result is received or dropped, and
        // `rx` is alive here.
        for _ in 0..20 {
            // SAFETY: the handle outlives this loop (see above); reading
            // its descriptor is a plain load.
            let fd = unsafe { brlapi__getFileDescriptor(address as *mut c_void) };
            if fd >= 0 {
                // SAFETY: shutting down a descriptor the library owns; it
                // stays open (closed by the library) so it cannot be reused.
                unsafe { libc::shutdown(fd, libc::SHUT_RDWR) };
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                // Whatever it was, it came too late.
                Ok(_) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(BrlapiError::Timeout);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
        // Still connecting (no socket yet: a host that never answers the
        // TCP handshake): left to the kernel's own limit, counted.
        STUCK.fetch_add(1, Ordering::Relaxed);
        std::thread::Builder::new()
            .name("brlapi-stuck".into())
            .spawn(move || {
                let _ = rx.recv();
                STUCK.fetch_sub(1, Ordering::Relaxed);
            })
            .map_err(|e| BrlapiError::Thread(e.to_string()))?;
        Err(BrlapiError::Timeout)
    }

    /// The whole handshake on the connecting thread: connect, take the
    /// display, learn its size and check it.
    fn handshake(
        &mut self,
        host_c: Option<CString>,
        auth_c: Option<CString>,
    ) -> Result<(), BrlapiError> {
        let h = self.h();
        let settings = ConnectionSettings {
            auth: auth_c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            host: host_c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
        };
        // SAFETY: the handle has the size the library asks for; the
        // settings' strings live until the call returns.
        let fd = unsafe { brlapi__openConnection(h, &settings, std::ptr::null_mut()) };
        if fd < 0 {
            return Err(last_error("brlapi_openConnection"));
        }
        self.opened = true;
        // SAFETY: the connection is open; the handler is a plain function.
        unsafe { brlapi__setExceptionHandler(h, Some(log_exception)) };
        // The size first, checked: taking the terminal and every write
        // size their buffers by it.
        let (mut x, mut y) = (0 as c_uint, 0 as c_uint);
        // SAFETY: two out-parameters.
        if unsafe { brlapi__getDisplaySize(h, &mut x, &mut y) } < 0 {
            return Err(last_error("brlapi_getDisplaySize"));
        }
        if !size_ok(x, y) {
            return Err(BrlapiError::Size {
                width: x,
                height: y,
            });
        }
        // An empty path: the root of brltty's terminal tree, which is the
        // display's whatever terminal (if any) brltty shows.
        // SAFETY: a null path with count 0 and no driver name.
        if unsafe { brlapi__enterTtyModeWithPath(h, std::ptr::null(), 0, std::ptr::null()) } < 0 {
            return Err(last_error("brlapi_enterTtyModeWithPath"));
        }
        // SAFETY: every key type, no key list.
        if unsafe { brlapi__acceptKeys(h, RANGE_ALL, std::ptr::null(), 0) } < 0 {
            return Err(last_error("brlapi_acceptKeys"));
        }
        self.width = x as usize;
        self.height = y as usize;
        Ok(())
    }

    fn h(&mut self) -> *mut c_void {
        self.handle.as_mut_ptr().cast()
    }

    /// The display's cells per line.
    pub fn width(&self) -> usize {
        self.width.max(1)
    }

    /// The display's lines.
    pub fn height(&self) -> usize {
        self.height.max(1)
    }

    /// Shows `text` (brltty translates it with its text table), cut or
    /// padded to the display, no cursor.
    pub fn write_text(&mut self, text: &str) -> Result<(), BrlapiError> {
        let cells = self.width() * self.height();
        let shown: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(cells)
            .collect();
        let shown = if shown.is_empty() {
            " ".to_owned()
        } else {
            shown
        };
        let count = shown.chars().count();
        // Control characters (NUL among them) were made spaces above.
        let c_text = CString::new(shown).map_err(|_| BrlapiError::Nul("the text"))?;
        let args = WriteArguments {
            display_number: DISPLAY_DEFAULT,
            region_begin: 1,
            // Negative: pad or cut the rest of the display.
            region_size: -(count as c_int),
            text: c_text.as_ptr(),
            text_size: -1,
            and_mask: std::ptr::null(),
            or_mask: std::ptr::null(),
            cursor: CURSOR_OFF,
            charset: c"UTF-8".as_ptr(),
        };
        let h = self.h();
        // SAFETY: the text holds `count` UTF-8 characters and a NUL.
        if unsafe { brlapi__write(h, &args) } < 0 {
            return Err(last_error("brlapi_write"));
        }
        Ok(())
    }

    /// Shows braille cells as they are (bit `n - 1` is dot `n`), cut or
    /// padded with blanks to the display.
    pub fn write_dots(&mut self, dots: &[u8]) -> Result<(), BrlapiError> {
        let mut all = vec![0u8; self.width() * self.height()];
        for (slot, &d) in all.iter_mut().zip(dots) {
            *slot = d;
        }
        let h = self.h();
        // SAFETY: the array holds one byte per cell of the display.
        if unsafe { brlapi__writeDots(h, all.as_ptr()) } < 0 {
            return Err(last_error("brlapi_writeDots"));
        }
        Ok(())
    }

    /// Waits up to `timeout_ms` for a key: `Ok(None)` if none came, an
    /// error if the connection is gone.
    pub fn read_key(&mut self, timeout_ms: i32) -> Result<Option<u64>, BrlapiError> {
        let mut code = 0u64;
        let h = self.h();
        // SAFETY: one out-parameter.
        match unsafe { brlapi__readKeyWithTimeout(h, timeout_ms, &mut code) } {
            1 => Ok(Some(code)),
            0 => Ok(None),
            _ => {
                // SAFETY: the thread-local error record.
                let e = unsafe { &*brlapi_error_location() };
                // Interrupted by a signal (BRLAPI_ERROR_LIBCERR, EINTR): no key.
                if e.brlerrno == 11 && e.libcerrno == libc::EINTR {
                    Ok(None)
                } else {
                    Err(last_error("brlapi_readKeyWithTimeout"))
                }
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let h = self.h();
        if self.opened {
            // SAFETY: the connection was opened; closing leaves TTY mode too.
            unsafe { brlapi__closeConnection(h) };
            return;
        }
        // A failed open may leave its socket open (the library returns
        // without closing it when the server hangs up after the version
        // packet): close it here, or every retry leaks one.
        // SAFETY: the handle was initialised by the open attempt (or is
        // zeroed, whose descriptor 0 is never a socket the library made:
        // it is checked below).
        let fd = unsafe { brlapi__getFileDescriptor(h) };
        if fd > 2 {
            // SAFETY: a descriptor the library opened and no longer uses.
            unsafe { libc::close(fd) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_codes_as_brlapi_makes_them() {
        // BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 8: the ninth cell.
        assert_eq!(
            Key::from_code(0x2000_0000 | 0x1_0000 | 8),
            Some(Key::Route(8))
        );
        assert_eq!(Key::from_code(0x2000_0000 | 2), Some(Key::LineDown));
        assert_eq!(Key::from_code(0x2000_0000 | 24), Some(Key::PanRight));
        // A key symbol (type 0), not a command.
        assert_eq!(Key::from_code(0xFF0D), None);
    }

    #[test]
    fn no_server_is_an_error_not_an_abort() {
        assert!(matches!(
            Connection::open(Some("127.0.0.1:179"), Some("none")),
            Err(BrlapiError::Api {
                call: "brlapi_openConnection",
                ..
            })
        ));
        assert_eq!(
            Connection::open(Some("a\0b"), None).err(),
            Some(BrlapiError::Nul("the BrlAPI host"))
        );
    }
}
