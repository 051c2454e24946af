// `tactus voices record`: a whole pack recorded through the page in
// Debian's chromium, whose microphone is a speech file (Chromium's fake
// capture device playing it in a loop), by keyboard alone; the pack then
// passes `tactus voices check`, and a table speaks with it (its sound in the
// table's WAV output).
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

  // Every word: R to record, R to stop; the page moves to the next one.
  const started = Date.now();
  for (let done = 1; done <= total; done++) {
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.getElementById("record").getAttribute("aria-pressed") === "true");
    await page.waitForTimeout(300);
    await page.keyboard.press("r");
    await page.waitForFunction((done) => document.getElementById("progress").textContent.startsWith(`${done} of`), done, { timeout: 20000 });
  }
  console.log(`recorded ${total} tokens in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.match(await page.textContent("#log"), /Every word is recorded/);
  // A word played back, and one recorded again: still every word.
  await page.keyboard.press("b");
  await page.keyboard.press("p");
  await page.evaluate(() => {
    window.keptAgain = 0;
    new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => {
      if (n.textContent.includes(" kept: ")) window.keptAgain += 1;
    }))).observe(document.getElementById("log"), { childList: true });
  });
  await page.keyboard.press("r");
  await page.waitForTimeout(300);
  await page.keyboard.press("r");
  await page.waitForFunction(() => window.keptAgain > 0);
  assert.equal(await page.textContent("#progress"), `${total} of ${total} recorded, 0 missing.`);

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
});
