// A measurement, not a test (scripts/test does not run it): the time from a
// move submitted to the first sample of its announcement on the sink the
// player's browser plays into, with the page's "sound on this device"
// switch on.
//
// A private PulseAudio (Debian's pulseaudio, its own runtime folder, one
// null sink `browser`, nothing system-wide) is the browser's sound server;
// parec records the sink's monitor. tactus serves ten tables on loopback
// (no sound of its own); for each table the player's page (Black, blind)
// is opened in Debian's chromium, the switch turned on, and the assistant
// enters White's moves of a 21-ply game over the API: each White move is
// one measurement. Every ply's announcement is waited out (played on the
// page, then 400 ms of silence on the sink) before the next move, so each
// White move starts from an idle output; a move whose words were scheduled
// behind others stops the run instead of measuring those. No move is left
// out of the figures.
//
// Prints p50, p90, p99 and the maximum, and where the time went: when the
// server's event reached a second listener in this process, when it
// reached the page and the page scheduled the words (the page's own marks,
// window.tactusSound.timings), the browser's estimate of when the first
// sample leaves its output (AudioContext.getOutputTimestamp), the load
// average, and the slowest moves in full. TACTUS_SOUND_DETAIL=FILE writes
// every move's breakdown as JSON.
//
//   TACTUS_BIN=target/debug/tactus node tests/pages/sound_latency.mjs
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join, dirname } from "node:path";
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";
import { chromium } from "playwright-core";

const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");
const RATE = 48000;
const LOUD = 300;
const TABLES = Number(process.env.TACTUS_TABLES || 10);
const GAME = ["e2e4", "c7c6", "d2d4", "d7d5", "b1c3", "d5e4", "c3e4", "g8f6", "d1d3", "e7e5", "d4e5", "d8a5",
  "c1d2", "a5e5", "e1c1", "f6e4", "d3d8", "e8d8", "d2g5", "d8c7", "g5d8"];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const dir = mkdtempSync(join(tmpdir(), "tactus-sound-"));
const children = [];
function cleanup() {
  for (const c of children) { try { c.kill("SIGKILL"); } catch { /* gone */ } }
  rmSync(dir, { recursive: true, force: true });
}

// The private sound server.
const pulseEnv = { ...process.env, HOME: dir, XDG_RUNTIME_DIR: join(dir, "run"), PULSE_RUNTIME_PATH: join(dir, "run"),
  PULSE_SERVER: "unix:" + join(dir, "native") };
spawnSync("mkdir", ["-p", join(dir, "run")]);
writeFileSync(join(dir, "default.pa"),
  `load-module module-native-protocol-unix auth-anonymous=1 socket=${join(dir, "native")}\n` +
  `load-module module-null-sink sink_name=browser rate=${RATE} channels=1\nset-default-sink browser\n`);
const pa = spawn("pulseaudio", ["-n", "--daemonize=no", "--use-pid-file=no", "--exit-idle-time=-1", "-F", join(dir, "default.pa"),
  `--log-target=file:${join(dir, "pulse.log")}`], { env: { ...pulseEnv, PULSE_SERVER: undefined }, stdio: "ignore" });
children.push(pa);
for (let i = 0; ; i++) {
  if (spawnSync("pactl", ["info"], { env: pulseEnv }).status === 0) break;
  if (i > 200) throw new Error("pulseaudio did not start");
  await sleep(50);
}

// The sink's monitor, each read stamped on arrival.
const samples = [];
const chunks = []; // [arrival ms, sample count after it]
const rec = spawn("parec", ["-d", "browser.monitor", "--format=s16le", `--rate=${RATE}`, "--channels=1", "--latency-msec=5", "--raw"],
  { env: pulseEnv, stdio: ["ignore", "pipe", "ignore"] });
children.push(rec);
let odd = null;
rec.stdout.on("data", (buf) => {
  const at = performance.now();
  let b = odd ? Buffer.concat([odd, buf]) : buf;
  odd = null;
  if (b.length % 2) { odd = b.subarray(b.length - 1); b = b.subarray(0, b.length - 1); }
  for (let i = 0; i < b.length; i += 2) samples.push(b.readInt16LE(i));
  chunks.push([at, samples.length]);
});
// When sample `i` was on the sink. Sample i came out of the sink no later
// than any read holding it or after it arrived here, less the samples
// between (if samples were lost on the way, it was earlier still): the
// least of those bounds over the reads of the next second, so that a read
// the recorder or this process was late for does not count as sound late
// out of the browser. `arrivedOnly` is the bound of the one read that held
// it (the estimate before).
function timeOf(i, arrivedOnly = false) {
  let lo = 0, hi = chunks.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (chunks[mid][1] > i) hi = mid; else lo = mid + 1; }
  if (lo === chunks.length) return null;
  const bound = ([at, end]) => at - ((end - i) / RATE) * 1000;
  let best = bound(chunks[lo]);
  if (arrivedOnly) return best;
  for (let k = lo + 1; k < chunks.length && chunks[k][0] <= chunks[lo][0] + 1000; k++) best = Math.min(best, bound(chunks[k]));
  return best;
}
function firstLoud(from) {
  for (let i = from; i < samples.length; i++) if (Math.abs(samples[i]) > LOUD) return i;
  return null;
}
async function quiet(ms) {
  // Until `ms` of silence after the last loud sample.
  for (;;) {
    let last = -1;
    for (let i = samples.length - 1; i >= 0; i--) if (Math.abs(samples[i]) > LOUD) { last = i; break; }
    if (samples.length - last > (RATE * ms) / 1000) return;
    await sleep(20);
  }
}

// tactus, ten tables, no sound of its own.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let venue = "";
for (let t = 1; t <= TABLES; t++) venue += `[[table]]\nid = "${t}"\nboard = "none"\nblind = "black"\n\n`;
writeFileSync(join(dir, "venue.toml"), venue);
const server = spawn(bin, ["serve", "--listen", `127.0.0.1:${port}`, "--data", join(dir, "data"), "--audio", "none",
  "--voice", join(root, "voices", "de-appendix-d"), "--config", join(dir, "venue.toml")], { stdio: ["ignore", "pipe", "inherit"] });
children.push(server);
await new Promise((resolve, reject) => {
  server.stdout.on("data", (c) => { if (String(c).includes("tactus is serving")) resolve(); });
  server.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
});
const tokensText = readFileSync(join(dir, "data", "tokens.toml"), "utf8");
function tokenOf(table, role) {
  const section = tokensText.split(/^\[tables\./m).find((s) => s.startsWith(`"${table}"]`) || s.startsWith(`${table}]`));
  return section.match(new RegExp(`^${role}\\s*=\\s*"([^"]*)"`, "m"))[1];
}
async function move(table, role, uci) {
  const r = await fetch(`${base}/api/tables/${table}/move`, {
    method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + tokenOf(table, role) },
    body: JSON.stringify({ move: uci }),
  });
  if (!r.ok) throw new Error(`table ${table} ${uci}: ${r.status} ${await r.text()}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  env: pulseEnv,
  // Playwright mutes the browser by default; here its sound is the point.
  ignoreDefaultArgs: ["--mute-audio"],
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--autoplay-policy=no-user-gesture-required"],
});
const latencies = [];
const arrivalStamped = []; // the same moves, each sample's time from its own read only
let pending = null;
// Per move, where the time went (epoch ms; the page reports its own marks
// in window.tactusSound.timings).
const details = [];
const epoch = (t) => performance.timeOrigin + t;
// A second listener of each table's live stream, in this process: when the
// server's event reached a client other than the browser.
function listen(table) {
  const arrivals = [];
  const ctl = new AbortController();
  (async () => {
    const r = await fetch(`${base}/api/tables/${table}/events`, { signal: ctl.signal });
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of r.body) {
      const at = epoch(performance.now());
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const ev = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (/^event: ?announcement$/m.test(ev)) arrivals.push(at);
      }
    }
  })().catch(() => {});
  return { arrivals, stop: () => ctl.abort() };
}
const loads = [loadavg()[0]];
const loading = []; // per page, from the switch to "Sound on" (the voice fetched and decoded)
try {
  for (let t = 1; t <= TABLES; t++) {
    const page = await browser.newPage();
    const sse = listen(t);
    await page.goto(`${base}/table/${t}/player#token=${tokenOf(t, "player")}`);
    await page.focus("#sound-here");
    const switched = performance.now();
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound on"), null, { timeout: 60000 });
    loading.push(performance.now() - switched);
    await sleep(300);
    for (let i = 0; i < GAME.length; i++) {
      const white = i % 2 === 0;
      const from = samples.length;
      const heardBefore = sse.arrivals.length;
      const playedBefore = await page.evaluate(() => window.tactusSound.played);
      const sent = performance.now();
      await move(t, white ? "assistant" : "player", GAME[i]);
      if (white) {
        for (let w = 0; firstLoud(from) === null; w++) {
          if (w > 500) {
            const played = await page.evaluate(() => window.tactusSound.played);
            const inputs = spawnSync("pactl", ["list", "short", "sink-inputs"], { env: pulseEnv }).stdout.toString();
            throw new Error(`table ${t}: ${GAME[i]} not heard (played by the page: ${played}; sink inputs: ${inputs.trim() || "none"})`);
          }
          await sleep(5);
        }
        const first = firstLoud(from);
        // Read once the announcement has played out (below): the reads that
        // followed its first sample bound that sample's time too.
        pending = { first, sent };
      }
      // This ply's announcement played out on the page (its context past
      // the last word) and then silence on the sink: the next move is
      // measured from an idle output, never queued behind this one.
      await page.waitForFunction((n) => window.tactusSound.played > n &&
        window.tactusSound.ctx.currentTime > window.tactusSound.playhead, playedBefore, { timeout: 30000, polling: 20 });
      await quiet(400);
      if (pending) {
        const ms = timeOf(pending.first) - pending.sent;
        const naive = timeOf(pending.first, true) - pending.sent;
        latencies.push(ms);
        arrivalStamped.push(naive);
        // The page's marks for this move's first announcement (a move can
        // cause more than one: the later ones are queued behind it).
        const mark = await page.evaluate((n) => window.tactusSound.timings.find((m) => m.n === n + 1) || null, playedBefore);
        const s0 = epoch(pending.sent);
        const d = {
          table: t, ply: i + 1, move: GAME[i], sent_at: s0, total: ms, stamped: naive,
          // The server's event at this process's own listener.
          server: sse.arrivals.length > heardBefore ? sse.arrivals[heardBefore] - s0 : null,
          // The event at the page's handler, the words scheduled, how far
          // ahead, and the browser's own estimate of the first sample out.
          page: mark && mark.arrived - s0, scheduled: mark && mark.scheduled - s0, lead: mark && mark.lead_ms,
          estimate: mark && mark.heard && mark.heard - s0, base: mark && mark.base_ms, output: mark && mark.output_ms,
          load: loadavg()[0],
        };
        // A move whose words were queued behind others measures those.
        if (d.lead === null || d.lead > 50) throw new Error(`table ${t}, ply ${i + 1}: not measured from an idle output (${JSON.stringify(d)})`);
        details.push(d);
        loads.push(d.load);
        if (ms > 150) console.log(`table ${t}, ply ${i + 1} (${GAME[i]}): ${ms.toFixed(1)} ms`);
        pending = null;
      }
    }
    sse.stop();
    await page.close();
  }
} finally {
  await browser.close();
  cleanup();
}
loads.push(loadavg()[0]);
if (process.env.TACTUS_SOUND_DETAIL) writeFileSync(process.env.TACTUS_SOUND_DETAIL, JSON.stringify(details, null, 1));
// Each share of the time as a median, then the slowest moves in full.
const med = (k) => {
  const v = details.map((d) => d[k]).filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)].toFixed(1) : "-";
};
const f = (x) => (x === null || x === undefined ? "-" : x.toFixed(1));
console.log(`medians (ms after the move was sent): server event ${med("server")}, at the page ${med("page")}, ` +
  `scheduled ${med("scheduled")} (lead ${med("lead")}), browser's estimate of output ${med("estimate")}, on the sink ${med("total")}; ` +
  `base latency ${med("base")}, output latency ${med("output")}`);
for (const d of details.slice().sort((a, b) => b.total - a.total).slice(0, 5)) {
  console.log(`  slowest: table ${d.table} ply ${d.ply}: server ${f(d.server)}, page ${f(d.page)}, scheduled ${f(d.scheduled)} ` +
    `(lead ${f(d.lead)}), estimate ${f(d.estimate)}, sink ${f(d.total)} (by its own read ${f(d.stamped)}), load ${d.load.toFixed(2)}`);
}
console.log(`sound ready after the switch (ms): ${loading.map((x) => x.toFixed(0)).join(" ")}`);
console.log(`load average (1 min) during the run: min ${Math.min(...loads).toFixed(2)}, mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2)}, max ${Math.max(...loads).toFixed(2)}`);
function figures(v) {
  v = v.slice().sort((a, b) => a - b);
  const p = (q) => v[Math.min(v.length, Math.max(1, Math.ceil(v.length * q))) - 1];
  return `p50 ${p(0.5).toFixed(1)} ms, p90 ${p(0.9).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, max ${v[v.length - 1].toFixed(1)} ms`;
}
console.log(`(each first sample timed by its own read only: ${figures(arrivalStamped)})`);
console.log(`browser: move to first sample on the sink over ${latencies.length} moves: ${figures(latencies)}`);
process.exit(0);
