//! Blocking on a port and a wake-up descriptor, so that a thread that
//! serves a board costs nothing while the board is idle.
//!
//! A board's thread (the driver in `serial.rs`, the simulator's reader in
//! `sim.rs`) has two things to wait for: bytes on its port, and its host
//! (a request to write, a settling time to read up to, the order to
//! stop). It used to read with a 20 ms timeout and look at its host in
//! between: 50 wake-ups a second per board, idle or not, about 0.4 of a
//! core per 1,000 boards (`docs/performance.md`). Now it blocks in
//! ppoll(2) on the port and on an eventfd the host writes to ([`Wake`]),
//! with a timeout only when an instant is due (a settling time, a log
//! summary, a reconnection).
//!
//! A thread that blocks without a timeout cannot tell from the clock alone
//! whether it woke late (on a busy host): it learns that from the kernel
//! instead ([`RunDelay`], the time it spent runnable but not running).

use std::fs::File;
use std::io::{self, Read, Seek};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

/// An eventfd: written by whoever has news for the thread, waited on by
/// the thread beside its port.
#[derive(Debug)]
pub struct Wake(OwnedFd);

impl Wake {
    /// A new descriptor, not yet woken.
    pub fn new() -> io::Result<Wake> {
        // SAFETY: eventfd takes plain integers; a non-negative result is a
        // new descriptor that nothing else owns.
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just created and is owned by nothing else.
        Ok(Wake(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Wakes the thread waiting on it (or its next wait returns at once).
    /// Never blocks: a counter already at its maximum is already woken.
    pub fn wake(&self) {
        let one: u64 = 1;
        // SAFETY: writes the 8 bytes of `one` to a descriptor we own.
        let _ = unsafe {
            libc::write(
                self.0.as_raw_fd(),
                (&one as *const u64).cast(),
                std::mem::size_of::<u64>(),
            )
        };
    }

    /// Takes the wake-ups so far, so that the next wait blocks again.
    pub fn clear(&self) {
        let mut n: u64 = 0;
        // SAFETY: reads at most 8 bytes into `n`; non-blocking, so an
        // eventfd that was not woken returns EAGAIN at once.
        let _ = unsafe {
            libc::read(
                self.0.as_raw_fd(),
                (&mut n as *mut u64).cast(),
                std::mem::size_of::<u64>(),
            )
        };
    }
}

/// What ended a [`wait`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ready {
    /// The port has bytes to read, or hung up or failed (a read says which).
    pub port: bool,
    /// The host woke the thread ([`Wake::wake`]); it is cleared.
    pub woken: bool,
}

impl Ready {
    /// Neither: the timeout ran out (or a signal interrupted the wait).
    pub fn timed_out(self) -> bool {
        !self.port && !self.woken
    }
}

/// Blocks until `port` (if any) can be read or has hung up, `wake` is
/// woken, or `timeout` (if any) has passed. A wake-up is cleared before
/// this returns. Interrupted by a signal, it returns as if timed out.
pub fn wait(port: Option<RawFd>, wake: &Wake, timeout: Option<Duration>) -> io::Result<Ready> {
    let events = libc::POLLIN;
    let mut fds = [
        libc::pollfd {
            fd: wake.0.as_raw_fd(),
            events,
            revents: 0,
        },
        libc::pollfd {
            // A negative descriptor is ignored by poll.
            fd: port.unwrap_or(-1),
            events,
            revents: 0,
        },
    ];
    let spec = timeout.map(|t| libc::timespec {
        tv_sec: t.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_nsec: t.subsec_nanos() as libc::c_long,
    });
    let spec_ptr = spec
        .as_ref()
        .map_or(std::ptr::null(), |s| s as *const libc::timespec);
    // SAFETY: two valid pollfd structures, a timespec that outlives the
    // call or null (no limit), and no signal mask change.
    let n = unsafe { libc::ppoll(fds.as_mut_ptr(), 2, spec_ptr, std::ptr::null()) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(Ready::default())
        } else {
            Err(e)
        };
    }
    let woken = fds[0].revents != 0;
    if woken {
        wake.clear();
    }
    // POLLHUP and POLLERR are reported whatever was asked: the read that
    // follows returns the hang-up or the error.
    Ok(Ready {
        port: port.is_some() && fds[1].revents != 0,
        woken,
    })
}

/// How long the calling thread has been runnable but not running, in all:
/// `/proc/thread-self/schedstat`'s second field. Read before and after a
/// wait, the difference is how late the thread ran once what it waited for
/// came (a busy host), which the clock cannot tell for a wait that has no
/// timeout.
#[derive(Debug)]
pub struct RunDelay(File);

impl RunDelay {
    /// The calling thread's counter; `None` where the kernel does not keep
    /// it (no `CONFIG_SCHED_INFO`): a thread then keeps a bounded wait.
    /// The file is the calling thread's: read it from that thread only.
    pub fn of_this_thread() -> Option<RunDelay> {
        let mut r = RunDelay(File::open("/proc/thread-self/schedstat").ok()?);
        r.now().map(|_| r)
    }

    /// The thread's run delay so far.
    pub fn now(&mut self) -> Option<Duration> {
        let mut text = [0u8; 96];
        self.0.rewind().ok()?;
        let n = self.0.read(&mut text).ok()?;
        let text = std::str::from_utf8(text.get(..n)?).ok()?;
        let ns: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(Duration::from_nanos(ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_wait_ends_on_a_wake_up_and_blocks_again_after_it() {
        let wake = std::sync::Arc::new(Wake::new().unwrap());
        let waker = wake.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            waker.wake();
        });
        // No timeout: only the wake-up from the other thread ends it.
        let r = wait(None, &wake, None).unwrap();
        t.join().unwrap();
        let woken = Ready {
            port: false,
            woken: true,
        };
        assert_eq!(r, woken);
        // Two wake-ups before a wait are one, and taken by it: the next
        // wait runs to its timeout.
        wake.wake();
        wake.wake();
        assert_eq!(wait(None, &wake, None).unwrap(), woken);
        let r = wait(None, &wake, Some(Duration::from_millis(5))).unwrap();
        assert!(r.timed_out(), "{r:?}");
    }

    #[test]
    fn a_wait_ends_when_the_port_has_bytes_or_hangs_up() {
        let wake = Wake::new().unwrap();
        let (mut a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        let r = wait(Some(b.as_raw_fd()), &wake, Some(Duration::ZERO)).unwrap();
        assert!(r.timed_out(), "nothing yet: {r:?}");
        std::io::Write::write_all(&mut a, b"L e2\n").unwrap();
        let r = wait(Some(b.as_raw_fd()), &wake, None).unwrap();
        assert!(r.port && !r.woken, "{r:?}");
        let fd = b.as_raw_fd();
        drop(a);
        // Bytes still there, then the hang-up: ready either way.
        assert!(wait(Some(fd), &wake, None).unwrap().port);
        drop(b);
    }

    #[test]
    fn the_run_delay_is_read_where_the_kernel_keeps_it() {
        let Some(mut delay) = RunDelay::of_this_thread() else {
            eprintln!("no /proc/thread-self/schedstat here: the driver keeps a bounded wait");
            return;
        };
        let before = delay.now().unwrap();
        let started = Instant::now();
        while started.elapsed() < Duration::from_millis(2) {}
        // A counter: it never goes back.
        assert!(delay.now().unwrap() >= before);
    }
}
