// `tactus voices record`: a whole pack recorded through the page in
// Debian's chromium, whose microphone is a speech file (Chromium's fake
// capture device playing it in a loop), by keyboard alone, 0.6 s a word
// (about two minutes for 196 words); every clip kept is trimmed to under
// 30 ms of quiet either side; a recording is kept for the word it began
// on; the pack then passes `tactus voices check`, and a table speaks with
// it (the recorded clip, sample for sample, in the table's WAV output).
// The server's refusals: tests/service/recorder.rs.
//
// Run by scripts/test after `cargo build`; TACTUS_BIN names the binary.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");
const dir = mkdtempSync(join(tmpdir(), "tactus-recorder-"));
const procs = [];
let browser;

after(async () => {
  if (browser) await browser.close();
  for (const p of procs) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Starts `tactus ARGS` and resolves once its output says `ready`. */
function start(args, ready) {
  const proc = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
  procs.push(proc);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tactus ${args[0]} did not start`)), 60000);
    proc.stdout.on("data", (chunk) => { if (String(chunk).includes(ready)) { clearTimeout(timer); resolve(proc); } });
    proc.on("exit", (code) => reject(new Error(`tactus ${args[0]} exited: ${code}`)));
  });
}

/** A 16-bit mono WAV's samples (the data chunk after a 44-byte header). */
function samples(path) {
  const b = readFileSync(path);
  const at = b.indexOf("data") + 8;
  return new Int16Array(b.buffer.slice(b.byteOffset + at, b.byteOffset + b.length - ((b.length - at) % 2)));
}

/** The speech the fake microphone plays: three words of the default pack
 * (a real voice), a quarter second of quiet between them. */
function speechFile() {
  const rate = 16000;
  const quiet = new Int16Array(rate / 4);
  const parts = ["file.e", "rank.5", "piece.knight"].flatMap((k) => [quiet, samples(join(root, "voices", "de-appendix-d", "clips", k + ".wav"))]);
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = Buffer.alloc(44 + n * 2);
  out.write("RIFF", 0); out.writeUInt32LE(36 + n * 2, 4); out.write("WAVE", 8);
  out.write("fmt ", 12); out.writeUInt32LE(16, 16); out.writeUInt16LE(1, 20); out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24); out.writeUInt32LE(rate * 2, 28); out.writeUInt16LE(2, 32); out.writeUInt16LE(16, 34);
  out.write("data", 36); out.writeUInt32LE(n * 2, 40);
  let at = 44;
  for (const p of parts) for (const s of p) { out.writeInt16LE(s, at); at += 2; }
  const path = join(dir, "speech.wav");
  writeFileSync(path, out);
  return path;
}

test("a whole pack recorded by keyboard from a microphone, checked, and spoken by a table", { timeout: 600000 }, async () => {
  const port = await freePort();
  const pack = join(dir, "mine");
  await start(["voices", "record", pack, "--from", "de-appendix-d", "--speaker", "Test", "--listen", `127.0.0.1:${port}`], "recording");
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${speechFile()}`, "--autoplay-policy=no-user-gesture-required"],
  });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/?lang=en`);
  await page.waitForFunction(() => /^0 of \d+ recorded/.test(document.getElementById("progress").textContent));
  const total = Number((await page.textContent("#progress")).match(/of (\d+)/)[1]);
  assert.ok(total > 150, `${total} tokens`);
  // The word to say is shown and said, the Record button has the focus.
  assert.equal(await page.evaluate(() => document.activeElement.id), "record");
  assert.match(await page.textContent("#log"), /Word 1 of \d+: Anna\./);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => v.id));
  assert.deepEqual(violations, []);

  // Every clip the server kept, as it answered the page.
  /** @type {Promise<{ key: string, seconds: number, loudness_db: number }>[]} */
  const answers = [];
  page.on("response", (r) => {
    if (r.request().method() === "PUT" && r.status() === 200) answers.push(r.json());
  });
  const keys = await page.evaluate(() => fetch("/api/record").then((r) => r.json()).then((p) => p.tokens.map((t) => t.key)));

  // Every word: R to record, R to stop; the page moves to the next one.
  const started = Date.now();
  for (let done = 1; done <= total; done++) {
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.getElementById("record").getAttribute("aria-pressed") === "true");
    await page.waitForTimeout(600);
    await page.keyboard.press("r");
    await page.waitForFunction((done) => document.getElementById("progress").textContent.startsWith(`${done} of`), done, { timeout: 20000 });
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`recorded ${total} tokens in ${seconds.toFixed(1)} s`);
  assert.match(await page.textContent("#log"), /Every word is recorded/);
  const kept = await Promise.all(answers.slice(0, total));
  assert.equal(answers.length, total, "no clip refused");
  assert.deepEqual(kept.map((k) => k.key), keys, "one clip kept per word, in the manifest's order");
  for (const k of kept) assert.ok(k.seconds > 0.05 && k.seconds < 1, `${k.key}: ${k.seconds} s`);
  // Each clip kept is mono 16-bit at the pack's rate, with under 30 ms of
  // quiet (below 2% of its peak) before and after the speech.
  for (const key of keys) {
    const clip = join(pack, "clips", key + ".wav");
    const header = readFileSync(clip).subarray(0, 44);
    assert.equal(header.readUInt16LE(22), 1, key);
    assert.equal(header.readUInt32LE(24), 16000, key);
    const s = samples(clip);
    const peak = s.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const loud = (/** @type {number} */ x) => Math.abs(x) >= peak * 0.02;
    const lead = s.findIndex(loud);
    const trail = s.length - 1 - s.findLastIndex(loud);
    assert.ok(lead * 1000 / 16000 < 30 && trail * 1000 / 16000 < 30, `${key}: ${lead} and ${trail} samples of quiet`);
  }

  // The word before the last played back, then recorded again; moving on
  // while recording stops it, and the clip is kept for the word it was of.
  await page.keyboard.press("b");
  assert.match(await page.evaluate(() => document.getElementById("log").lastElementChild?.textContent || ""), new RegExp(`^Word ${total - 1} of ${total}: .* recorded$`));
  const played = page.waitForResponse((r) => r.request().method() === "GET" && r.url().includes(`/api/record/clips/${keys[total - 2]}?`));
  await page.keyboard.press("p");
  assert.equal((await played).status(), 200);
  const again = page.waitForResponse((r) => r.request().method() === "PUT");
  await page.keyboard.press("r");
  await page.waitForFunction(() => document.getElementById("record").getAttribute("aria-pressed") === "true");
  await page.waitForTimeout(600);
  await page.keyboard.press("n");
  const answer = await again;
  assert.equal(answer.status(), 200);
  assert.equal((await answer.json()).key, keys[total - 2]);
  assert.equal(await page.getAttribute("#record", "aria-pressed"), "false");
  await page.waitForFunction(() => / kept: /.test(document.getElementById("log").lastElementChild?.textContent || ""));
  assert.equal(await page.textContent("#progress"), `${total} of ${total} recorded, 0 missing.`);
  assert.equal(await page.textContent("#record"), "Record");
  assert.match(await page.textContent("#log"), new RegExp(`Word ${total} of ${total}: `));

  // The pack passes the check tactus applies to every pack.
  const check = spawnSync(bin, ["voices", "check", pack], { encoding: "utf8" });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /made by recorded \(Test\)/);

  // A table speaks with it: the opponent's move, said into the table's WAV.
  const servePort = await freePort();
  const data = join(dir, "data");
  const out = join(dir, "out");
  await start(["serve", "--listen", `127.0.0.1:${servePort}`, "--data", data, "--audio", `wav:${out}`, "--voice", pack], "tactus is serving");
  const tokens = readFileSync(join(data, "tokens.toml"), "utf8");
  const assistant = tokens.split('[tables.1]')[1].match(/assistant = "([0-9a-f]+)"/)[1];
  const r = await fetch(`http://127.0.0.1:${servePort}/api/tables/1/move`, {
    method: "POST", headers: { "Authorization": "Bearer " + assistant, "Content-Type": "application/json" }, body: JSON.stringify({ move: "e4" }),
  });
  assert.equal(r.status, 200, await r.text());
  let said = new Int16Array(0);
  for (let i = 0; i < 100 && said.length === 0; i++) {
    await new Promise((res) => setTimeout(res, 100));
    const files = readdirSync(out);
    if (files.length) said = samples(join(out, files[0]));
  }
  const loudest = said.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
  assert.ok(said.length > 0 && loudest > 3000, `${said.length} samples, peak ${loudest}`);
  // What the table said is the recorded clip of the move's first word:
  // "e4" begins with the file (file.e), found in the output by normalised
  // cross-correlation.
  const clip = samples(join(pack, "clips", "file.e.wav"));
  const match = bestMatch(said, clip);
  console.log(`file.e's recorded clip found in the table's output at correlation ${match.toFixed(3)}`);
  assert.ok(match > 0.9, `file.e's clip in the table's output: ${match.toFixed(3)}`);
});

/** The highest normalised cross-correlation of `needle` at any offset in
 * `hay` (1: the same samples, at any level).
 * @param {Int16Array} hay @param {Int16Array} needle */
function bestMatch(hay, needle) {
  const n = needle.length;
  let nn = 0;
  for (const x of needle) nn += x * x;
  let best = 0;
  for (let at = 0; at + n <= hay.length; at++) {
    let dot = 0, hh = 0;
    for (let i = 0; i < n; i++) { dot += hay[at + i] * needle[i]; hh += hay[at + i] * hay[at + i]; }
    if (hh > 0) best = Math.max(best, dot / Math.sqrt(nn * hh));
  }
  return best;
}
