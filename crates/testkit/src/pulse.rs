//! A private PulseAudio for tests: Debian's `pulseaudio` started as the test
//! user with its own runtime folder, one null sink per table, ALSA PCMs of
//! the same names pointing at them (the `pulse` plugin of
//! `libasound2-plugins`), and recordings of each sink's monitor with
//! `parec`. Nothing system-wide is touched.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The rate every null sink runs at.
pub const RATE: u32 = 48_000;

/// A running private sound server.
pub struct Pulse {
    dir: tempfile::TempDir,
    child: Option<Child>,
}

fn need(program: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "`{program}` is missing: install Debian's pulseaudio, pulseaudio-utils and \
         libasound2-plugins (scripts/test does)"
    );
}

impl Pulse {
    /// Starts a server with one null sink (and one ALSA PCM) per name.
    pub fn start(sinks: &[&str]) -> Pulse {
        need("pulseaudio");
        need("parec");
        need("pactl");
        assert!(
            Path::new("/usr/share/alsa/alsa.conf.d/50-pulseaudio.conf").exists()
                || Path::new("/usr/share/alsa/alsa.conf.d/pulse.conf").exists(),
            "the ALSA pulse plugin is missing: install Debian's libasound2-plugins"
        );
        let dir = tempfile::tempdir().unwrap();
        let sinks: Vec<String> = sinks.iter().map(|s| (*s).to_owned()).collect();
        let mut pa = format!(
            "load-module module-native-protocol-unix auth-anonymous=1 socket={}\n",
            dir.path().join("native").display()
        );
        let mut asound = String::from("</usr/share/alsa/alsa.conf>\n");
        for s in &sinks {
            pa.push_str(&Pulse::sink_line(s));
            pa.push('\n');
            asound.push_str(&format!("pcm.{s} {{ type pulse device {s} }}\n"));
        }
        std::fs::write(dir.path().join("default.pa"), pa).unwrap();
        std::fs::write(dir.path().join("asoundrc"), asound).unwrap();
        std::fs::create_dir_all(dir.path().join("run")).unwrap();
        let mut pulse = Pulse { dir, child: None };
        pulse.restart();
        pulse
    }

    fn sink_line(name: &str) -> String {
        format!("load-module module-null-sink sink_name={name} rate={RATE} channels=1")
    }

    /// The environment a client of this server needs (tactus, parec).
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("PULSE_SERVER".into(), self.server()),
            (
                "ALSA_CONFIG_PATH".into(),
                self.dir.path().join("asoundrc").display().to_string(),
            ),
            // No cookie or runtime files in the user's home.
            ("PULSE_RUNTIME_PATH".into(), self.run_dir()),
        ]
    }

    fn server(&self) -> String {
        format!("unix:{}", self.dir.path().join("native").display())
    }

    fn run_dir(&self) -> String {
        self.dir.path().join("run").display().to_string()
    }

    /// A command of pulseaudio-utils aimed at this server.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.envs(self.env());
        c.env("HOME", self.dir.path());
        c
    }

    /// SIGKILL, as a crash of the sound server would.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = std::fs::remove_file(self.dir.path().join("native"));
    }

    /// Starts the server (again) with the same sinks and waits until it
    /// answers.
    pub fn restart(&mut self) {
        self.kill();
        let d = self.dir.path();
        let child = Command::new("pulseaudio")
            .args([
                "-n",
                "--daemonize=no",
                "--use-pid-file=no",
                "--exit-idle-time=-1",
                // Blocks are copied over the socket, never shared: Debian
                // 12's PulseAudio aborts on its own assertion
                // (memblock.c: `n_imported > 0`, after "Cannot send block
                // reference with non-registered memfd ID", its issue 824)
                // when recorders come and go for a few minutes, as the
                // fifty starts do; a crashed server silenced every table
                // from the 17th start on.
                "--disable-shm=yes",
            ])
            .arg("-F")
            .arg(d.join("default.pa"))
            .arg(format!(
                "--log-target=file:{}",
                d.join("pulse.log").display()
            ))
            .env("HOME", d)
            .env("XDG_RUNTIME_DIR", self.run_dir())
            .env("PULSE_RUNTIME_PATH", self.run_dir())
            .env("PULSE_STATE_PATH", d.join("state"))
            .env_remove("PULSE_SERVER")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pulseaudio");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ok = self
                .command("pactl")
                .arg("info")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "pulseaudio did not start: {}",
                std::fs::read_to_string(d.join("pulse.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Unloads sink `name` (its streams end, as when a USB headset is
    /// pulled).
    pub fn unload(&self, name: &str) {
        let out = self
            .command("pactl")
            .args(["list", "short", "modules"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find(|l| l.contains(&format!("sink_name={name} ")))
            .unwrap_or_else(|| panic!("no module for sink {name}: {text}"));
        let id = line.split_whitespace().next().unwrap();
        let ok = self
            .command("pactl")
            .args(["unload-module", id])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Loads sink `name` again.
    pub fn load(&self, name: &str) {
        let line = Pulse::sink_line(name);
        let ok = self
            .command("pactl")
            .args(line.split_whitespace())
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Records sink `name`'s monitor from now on.
    pub fn record(&self, name: &str) -> Recording {
        let mut child = self
            .command("parec")
            .args([
                "-d",
                &format!("{name}.monitor"),
                "--format=s16le",
                &format!("--rate={RATE}"),
                "--channels=1",
                "--latency-msec=5",
                "--raw",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start parec");
        let mut out = child.stdout.take().unwrap();
        let data = Arc::new(Mutex::new(Data::default()));
        let d = Arc::clone(&data);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut odd: Option<u8> = None;
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let at = Instant::now();
                let mut bytes: Vec<u8> = odd.take().into_iter().collect();
                bytes.extend_from_slice(&buf[..n]);
                if bytes.len() % 2 == 1 {
                    odd = bytes.pop();
                }
                let mut d = d.lock().unwrap();
                for pair in bytes.chunks_exact(2) {
                    d.samples.push(i16::from_le_bytes([pair[0], pair[1]]));
                }
                let end = d.samples.len();
                d.chunks.push((at, end));
            }
        });
        Recording {
            child,
            data,
            started: Instant::now(),
        }
    }

    /// The folder of this server's files.
    pub fn dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }
}

impl Drop for Pulse {
    fn drop(&mut self) {
        self.kill();
    }
}

#[derive(Default)]
struct Data {
    samples: Vec<i16>,
    /// When each read arrived, and the sample count after it.
    chunks: Vec<(Instant, usize)>,
}

/// A sink's monitor being recorded.
pub struct Recording {
    child: Child,
    data: Arc<Mutex<Data>>,
    pub started: Instant,
}

/// Where an announcement began to be heard ([`Recording::heard_start`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeardStart {
    /// The recording's index of the first sample of it heard.
    pub at: usize,
    /// Samples of its opening that were not heard (skipped after an
    /// underrun); 0 when it was heard from its first sound.
    pub skipped: usize,
}

/// Above this a sample is sound, not silence (about -40 dBFS).
pub const LOUD: i16 = 300;

impl Recording {
    /// Every sample so far.
    pub fn samples(&self) -> Vec<i16> {
        self.data.lock().unwrap().samples.clone()
    }

    /// The samples from index `from` on (none if fewer were recorded).
    pub fn samples_from(&self, from: usize) -> Vec<i16> {
        let d = self.data.lock().unwrap();
        d.samples
            .get(from..)
            .map(<[i16]>::to_vec)
            .unwrap_or_default()
    }

    /// Samples recorded so far.
    pub fn len(&self) -> usize {
        self.data.lock().unwrap().samples.len()
    }

    /// Nothing recorded yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stretches of sound, as sample ranges: runs of loud samples with
    /// less than `gap_ms` of silence inside.
    pub fn spans(&self, gap_ms: u32) -> Vec<(usize, usize)> {
        spans(&self.samples(), gap_ms)
    }

    /// When sample `i` reached the recorder (from the arrival of the read
    /// holding it; later by at most parec's 5 ms latency).
    pub fn time_of(&self, i: usize) -> Option<Instant> {
        let d = self.data.lock().unwrap();
        let &(at, end) = d.chunks.iter().find(|(_, end)| *end > i)?;
        let behind = (end - i) as f64 / f64::from(RATE);
        Some(at - Duration::from_secs_f64(behind))
    }

    /// The first loud sample at or after sample `from`.
    pub fn first_loud(&self, from: usize) -> Option<usize> {
        let d = self.data.lock().unwrap();
        d.samples
            .get(from..)?
            .iter()
            .position(|s| s.unsigned_abs() > LOUD.unsigned_abs())
            .map(|p| from + p)
    }

    /// Where announcement `given` (as rendered, 16-bit at [`RATE`]) began
    /// to be heard at or after sample `from`. A word may open well below
    /// [`LOUD`] (the German voice's "Felix": 37 ms of its /f/ at about
    /// -50 dBFS), which the first loud sample alone would count as not yet
    /// heard; so the first loud sample after `from` is lined up with
    /// `given`'s, believed only if the 20 ms from it were recorded sample
    /// for sample as given (PulseAudio at full volume passes samples
    /// unchanged), and followed back as far as the recording still matches
    /// `given`, to its first sound (first sample that is not 0). `None`
    /// if the first loud sample is not `given`'s.
    pub fn heard_start(&self, from: usize, given: &[i16]) -> Option<HeardStart> {
        let loud = |s: &i16| s.unsigned_abs() > LOUD.unsigned_abs();
        let sound = given.iter().position(|&s| s != 0)?;
        let onset = given.iter().position(loud)?;
        let end = (onset + (RATE / 50) as usize).min(given.len());
        let heard_loud = self.first_loud(from)?;
        let d = self.data.lock().unwrap();
        let heard = &d.samples;
        if heard.get(heard_loud..heard_loud + (end - onset))? != &given[onset..end] {
            return None;
        }
        // Back through the quiet onset while it was recorded as given: an
        // underrun just before the word makes PulseAudio skip its first
        // samples, and the word is then heard from the first it kept.
        let mut back = 0;
        while onset - back > sound
            && heard_loud - back > from
            && heard[heard_loud - back - 1] == given[onset - back - 1]
        {
            back += 1;
        }
        Some(HeardStart {
            at: heard_loud - back,
            skipped: onset - sound - back,
        })
    }

    /// The loudest sample's magnitude.
    pub fn peak(&self) -> u16 {
        self.samples()
            .iter()
            .map(|s| s.unsigned_abs())
            .max()
            .unwrap_or(0)
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs of loud samples with less than `gap_ms` of silence inside.
pub fn spans(samples: &[i16], gap_ms: u32) -> Vec<(usize, usize)> {
    let gap = (RATE * gap_ms / 1000) as usize;
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if s.unsigned_abs() <= LOUD.unsigned_abs() {
            continue;
        }
        match out.last_mut() {
            Some((_, end)) if i - *end <= gap => *end = i,
            _ => out.push((i, i)),
        }
    }
    out
}

/// The loud span of a WAV file, in seconds, and its rate.
pub fn wav_span(path: &Path) -> (f64, Vec<i16>, u32) {
    let mut r = hound::WavReader::open(path).unwrap();
    let rate = r.spec().sample_rate;
    let samples: Vec<i16> = r.samples::<i16>().map(Result::unwrap).collect();
    let s = spans(&samples, 10_000);
    let len = s.first().map_or(0.0, |&(a, _)| {
        (s.last().unwrap().1 - a) as f64 / f64::from(rate)
    });
    (len, samples, rate)
}
