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
// one measurement (Black's replies are entered by the player and waited
// out). Prints p50, p90, p99 and the maximum.
//
//   TACTUS_BIN=target/debug/tactus node tests/pages/sound_latency.mjs
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
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
function timeOf(i) {
  const c = chunks.find(([, end]) => end > i);
  return c ? c[0] - ((c[1] - i) / RATE) * 1000 : null;
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
try {
  for (let t = 1; t <= TABLES; t++) {
    const page = await browser.newPage();
    await page.goto(`${base}/table/${t}/player#token=${tokenOf(t, "player")}`);
    await page.focus("#sound-here");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound on"), null, { timeout: 60000 });
    await sleep(300);
    for (let i = 0; i < GAME.length; i++) {
      const white = i % 2 === 0;
      const from = samples.length;
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
        const ms = timeOf(firstLoud(from)) - sent;
        latencies.push(ms);
        if (ms > 150) console.log(`table ${t}, ply ${i + 1} (${GAME[i]}): ${ms.toFixed(1)} ms`);
      }
      await quiet(400);
    }
    await page.close();
  }
} finally {
  await browser.close();
  cleanup();
}
latencies.sort((a, b) => a - b);
const p = (q) => latencies[Math.min(latencies.length, Math.max(1, Math.ceil(latencies.length * q))) - 1];
console.log(`browser: move to first sample on the sink over ${latencies.length} moves: ` +
  `p50 ${p(0.5).toFixed(1)} ms, p90 ${p(0.9).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`);
process.exit(0);
