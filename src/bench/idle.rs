//! `tactus bench idle`: what idle tables cost. A real `tactus serve` with
//! N tables (50 by default), each on a simulated peg board (`board =
//! "sim"`, in the server's own process, as `scripts/run` starts it), no
//! sound; once every board has connected, nothing happens for S seconds
//! (10 by default) and the server's CPU time over them is read from
//! `/proc/<pid>/stat` (user and system, every thread), with its threads'
//! context switches (`/proc/<pid>/task/*/status`): each is a wake-up.
//!
//! On a small computer (a Raspberry Pi at a table, or as a club's server)
//! an idle table must cost nothing measurable: the board threads block on
//! their ports (`crates/board/src/wake.rs`) instead of waking every 20 ms.
//! `--exe` runs another build of the server (an arm64 one under
//! qemu-user, through binfmt): the ratio of the two figures is what
//! emulation adds.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::error::BenchError;
use super::serve::scratch;

/// How the idle benchmark runs.
#[derive(Debug, Clone)]
pub struct IdleOptions {
    /// The `tactus` executable started as the server.
    pub exe: PathBuf,
    pub tables: usize,
    /// How long the idle server is measured.
    pub seconds: f64,
    pub voice: String,
}

/// What the idle server cost.
#[derive(Debug, Clone, Serialize)]
pub struct IdleReport {
    pub tables: usize,
    /// The measured span, seconds of the wall clock.
    pub seconds: f64,
    /// CPU time (user and system, every thread) over the span.
    pub cpu_s: f64,
    /// The same as a share of one core, in percent.
    pub cpu_percent_of_a_core: f64,
    /// Context switches of all the server's threads over the span, a
    /// second: how often something in it woke.
    pub wakeups_per_s: f64,
    /// The server's threads.
    pub threads: usize,
    /// Its resident memory at the end, MB.
    pub rss_mb: f64,
}

/// How long the server may take to start and connect its boards.
const READY: Duration = Duration::from_secs(60);

/// Starts the server, waits for every board, measures it idle.
pub fn run_idle(options: &IdleOptions) -> Result<IdleReport, BenchError> {
    if options.tables == 0 {
        return Err(BenchError::Option("--tables must be at least 1"));
    }
    if !(options.seconds > 0.0 && options.seconds.is_finite()) {
        return Err(BenchError::Option("--seconds must be more than 0"));
    }
    let data = scratch(usize::MAX)?;
    let result = measure(options, &data);
    let _ = std::fs::remove_dir_all(&data);
    result
}

fn measure(options: &IdleOptions, data: &Path) -> Result<IdleReport, BenchError> {
    let config = write_venue(options, data)?;
    let (child, lines) = spawn_server(&options.exe, &config)?;
    let deadline = Instant::now() + READY;
    let addr = serving_on(&lines, deadline)?;
    boards_connected(&addr, options.tables, deadline)?;
    // What connecting set off (scans, hellos, the first state) is over,
    // and the boards have been quiet long enough for their drivers to stop
    // looking at the clock.
    std::thread::sleep(tactus_board::serial::QUIET + Duration::from_secs(1));
    idle_cost(child.0.id(), options)
}

/// Writes the venue file: `options.tables` tables on simulated peg boards,
/// no sound, the data folder `data`; returns its path.
fn write_venue(options: &IdleOptions, data: &Path) -> Result<PathBuf, BenchError> {
    let mut venue = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\ndata = \"{}\"\n\n[speech]\nvoice = \"{}\"\naudio = \"none\"\n",
        data.display(),
        options.voice
    );
    for t in 1..=options.tables {
        venue.push_str(&format!("\n[[table]]\nid = \"t{t}\"\nboard = \"sim\"\n"));
    }
    let config = data.join("venue.toml");
    std::fs::write(&config, venue)
        .map_err(BenchError::io(format!("cannot write {}", config.display())))?;
    Ok(config)
}

/// Starts `tactus serve` on the venue `config`; returns it with its
/// output's lines.
fn spawn_server(exe: &Path, config: &Path) -> Result<(Killed, mpsc::Receiver<String>), BenchError> {
    let mut child = Killed(
        Command::new(exe)
            .arg("serve")
            .arg("--config")
            .arg(config)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(BenchError::io(format!("cannot start {}", exe.display())))?,
    );
    let stdout = child
        .0
        .stdout
        .take()
        .ok_or_else(|| BenchError::Missing("no stdout".into()))?;
    let (tx, rx) = mpsc::channel();
    // Read every line, always: a full pipe would stall the server, and a
    // closed one would fail its next print.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    Ok((child, rx))
}

/// The address the server says it serves on, once it does (by `deadline`).
fn serving_on(lines: &mpsc::Receiver<String>, deadline: Instant) -> Result<String, BenchError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines.recv_timeout(left).map_err(|_| {
            BenchError::Missing(format!("tactus serve did not start within {READY:?}"))
        })?;
        if let Some(rest) = line.strip_prefix("tactus is serving on http://") {
            return Ok(rest.trim_end_matches('/').to_owned());
        }
    }
}

/// Waits (until `deadline`) for every table's board to be connected (the
/// simulated boards are opened by their drivers as the tables start).
fn boards_connected(addr: &str, tables: usize, deadline: Instant) -> Result<(), BenchError> {
    for t in 1..=tables {
        loop {
            let r = tactus_testkit::http::request(
                addr,
                "GET",
                &format!("/api/tables/t{t}"),
                None,
                None,
                Duration::from_secs(10),
            )
            .map_err(BenchError::io(format!("cannot read table t{t}")))?;
            let v: serde_json::Value = serde_json::from_str(&r.body).unwrap_or_default();
            if v["board"]["connected"] == true {
                break;
            }
            if Instant::now() > deadline {
                return Err(BenchError::Missing(format!(
                    "table t{t}'s board did not connect within {READY:?}"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(())
}

/// The idle server `pid`'s cost over `options.seconds`: CPU time, wake-ups,
/// threads and memory.
fn idle_cost(pid: u32, options: &IdleOptions) -> Result<IdleReport, BenchError> {
    let (cpu0, switches0) = (cpu_of(pid)?, switches_of(pid));
    let began = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(options.seconds));
    let (cpu1, switches1) = (cpu_of(pid)?, switches_of(pid));
    let seconds = began.elapsed().as_secs_f64();
    let threads = std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count());
    let rss_mb = rss_of(pid);
    let cpu_s = (cpu1 - cpu0).max(0.0);
    Ok(IdleReport {
        tables: options.tables,
        seconds,
        cpu_s,
        cpu_percent_of_a_core: cpu_s / seconds * 100.0,
        wakeups_per_s: switches1.saturating_sub(switches0) as f64 / seconds,
        threads,
        rss_mb,
    })
}

/// A child killed and reaped when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A process's CPU time so far (user and system, all its threads), in
/// seconds: fields 14 and 15 of `/proc/<pid>/stat`, in clock ticks.
pub(crate) fn cpu_of(pid: u32) -> Result<f64, BenchError> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(BenchError::io(format!("cannot read /proc/{pid}/stat")))?;
    // After the command's closing parenthesis: field 3 (state) onwards.
    let rest = stat
        .rfind(')')
        .and_then(|i| stat.get(i + 2..))
        .ok_or_else(|| BenchError::Missing(format!("/proc/{pid}/stat unreadable: {stat}")))?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    let (Some(utime), Some(stime)) = (tick(11), tick(12)) else {
        return Err(BenchError::Missing(format!(
            "no CPU times in /proc/{pid}/stat: {stat}"
        )));
    };
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Ok((utime + stime) as f64 / hz)
}

/// Context switches of every thread of a process so far (voluntary and
/// not): threads that came and went meanwhile are not counted.
fn switches_of(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("status")).ok())
        .map(|status| {
            status
                .lines()
                .filter_map(|l| {
                    l.strip_prefix("voluntary_ctxt_switches:")
                        .or_else(|| l.strip_prefix("nonvoluntary_ctxt_switches:"))
                })
                .filter_map(|v| v.trim().parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
}

/// A process's resident memory now, MB (0 if unknown).
fn rss_of(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb * 1024.0 / 1e6)
}
