// Page tests in Debian's chromium, driven by playwright-core: a game played
// with the keyboard alone on the assistant's and the player's pages, every
// announcement arriving in the player's live region as text, and an axe-core
// scan of the three pages with no violations.
//
// Run by scripts/test after `cargo build`; TACTUS_BIN names the binary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");

let server, browser, base, tokens, data;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function readTokens(dir) {
  const text = readFileSync(join(dir, "tokens.toml"), "utf8");
  const out = {};
  let section = null;
  for (const line of text.split("\n")) {
    const m = line.match(/^\[tables\."?([^"\]]+)"?\]/);
    if (m) { section = out[m[1]] = {}; continue; }
    const kv = line.match(/^(\w+)\s*=\s*"([^"]*)"/);
    if (kv && section) section[kv[1]] = kv[2];
  }
  return out;
}

before(async () => {
  data = mkdtempSync(join(tmpdir(), "tactus-pages-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(bin, ["serve", "--listen", `127.0.0.1:${port}`, "--data", data, "--audio", "none",
    "--voice", join(root, "voices", "de-appendix-d")], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus serve did not start")), 60000);
    server.stdout.on("data", (chunk) => {
      if (String(chunk).includes("tactus is serving")) { clearTimeout(timer); resolve(); }
    });
    server.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  tokens = readTokens(data)["1"];
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill("SIGKILL");
  if (data) rmSync(data, { recursive: true, force: true });
});

async function axe(page) {
  // The pages forbid inline scripts (CSP script-src 'self'); the test
  // evaluates axe-core through the DevTools protocol, which CSP does not bind.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
}

async function open(path, token) {
  const page = await browser.newPage();
  await page.goto(base + path + (token ? "#token=" + token : ""));
  return page;
}

test("a game by keyboard alone, every announcement in the player's live region", async () => {
  const player = await open("/table/1/player", tokens.player);
  const assistant = await open("/table/1/assistant", tokens.assistant);
  await player.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black"));
  // The assistant enters White's move with the keyboard only.
  await assistant.focus("#move-input");
  await assistant.keyboard.type("e4");
  await assistant.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("log").textContent.includes("Eva vier"));
  // The player's move box has the focus on load: type and press Enter.
  const focused = await player.evaluate(() => document.activeElement.id);
  assert.equal(focused, "move-input");
  await player.keyboard.type("Sf6");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("log").textContent.includes("Springer Felix sechs"));
  // The same move again from White's side: identical words are read again.
  await assistant.focus("#move-input");
  await assistant.keyboard.type("Nf3");
  await assistant.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("log").textContent.includes("Springer Felix drei"));
  // Commands: the clock, and the pieces.
  await player.keyboard.type("c");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => /Weiß .* Schwarz .* zwei Züge/.test(document.getElementById("log").textContent));
  await player.keyboard.type("p N");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("log").textContent.includes("white knight: b1, f3"));
  // An illegal move is refused in words, and changes nothing.
  await player.keyboard.type("Ke5");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => /not a legal move|illegal|no legal/i.test(document.getElementById("log").textContent));
  const state = await (await fetch(base + "/api/tables/1")).json();
  assert.deepEqual(state.moves, ["e4", "Nf6", "Nf3"]);
  await player.close();
  await assistant.close();
});

test("sound on this device: a labelled switch, worked by keyboard, that plays the announcements", async () => {
  const player = await open("/table/1/player", tokens.player);
  await player.waitForFunction(() => !document.getElementById("summary").textContent.startsWith("Loading"));
  const label = await player.evaluate(() => {
    const s = document.getElementById("sound-here");
    return { role: s.getAttribute("role"), label: s.labels[0].textContent, checked: s.checked };
  });
  assert.deepEqual(label, { role: "switch", label: "Sound on this device", checked: false });
  await player.focus("#sound-here");
  await player.keyboard.press("Space");
  // The state is said in a status region once the voice has loaded.
  await player.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound on"), null, { timeout: 30000 });
  const clips = await player.evaluate(() => Object.keys(window.tactusSound.clips).length);
  assert.ok(clips > 150, `${clips} clips decoded`);
  // An announcement (the clock) is played here from its tokens.
  await player.focus("#move-input");
  await player.keyboard.type("c");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => window.tactusSound.played >= 1);
  await player.focus("#sound-here");
  await player.keyboard.press("Space");
  await player.waitForFunction(() => document.getElementById("sound-status").textContent === "Sound off on this device.");
  await player.close();
});

// Each page once it shows the game (the live stream never lets the network
// go idle, so readiness is what the page shows).
const loaded = () => !(document.getElementById("summary") || { textContent: "" }).textContent.startsWith("Loading");
const listed = () => document.querySelectorAll("#tables tr").length > 0;
for (const [name, path, role, ready] of [
  ["player", "/table/1/player", "player", loaded],
  ["assistant", "/table/1/assistant", "assistant", loaded],
  ["arbiter overview", "/arbiter", null, listed],
  ["arbiter table", "/arbiter/1", "arbiter", loaded],
  ["index", "/", null, () => true],
]) {
  test(`axe-core finds no violations on the ${name} page`, async () => {
    const page = await open(path, role ? tokens[role] : null);
    await page.waitForFunction(ready);
    const violations = await axe(page);
    assert.deepEqual(violations, []);
    await page.close();
  });
}

// Every page in Spanish and German: the right lang attribute, the words of
// the catalogue, and no axe-core violation.
for (const [lang, title] of [["es", "Jugador, mesa 1"], ["de", "Spieler, Tisch 1"]]) {
  for (const [name, path, role, ready] of [
    ["player", "/table/1/player", "player", loaded],
    ["assistant", "/table/1/assistant", "assistant", loaded],
    ["arbiter table", "/arbiter/1", "arbiter", loaded],
    ["index", "/", null, () => true],
  ]) {
    test(`the ${name} page in ${lang}: lang attribute and axe-core`, async () => {
      const page = await open(path + "?lang=" + lang, role ? tokens[role] : null);
      await page.waitForFunction(ready);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      if (name === "player") assert.equal(await page.evaluate(() => document.querySelector("h1").textContent), title);
      assert.deepEqual(await axe(page), []);
      await page.close();
    });
  }
}

test("the language comes from Accept-Language, and the choice on the page is remembered", async () => {
  const context = await browser.newContext({ locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9" } });
  const page = await context.newPage();
  await page.goto(base + "/table/1/player#token=" + tokens.player);
  await page.waitForFunction(loaded);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
  // Choose Spanish with the keyboard: the page comes back in Spanish.
  await page.focus("#page-lang");
  await page.selectOption("#page-lang", "es");
  await page.waitForFunction(() => document.documentElement.lang === "es");
  await page.waitForFunction(loaded);
  assert.match(await page.evaluate(() => document.getElementById("summary").textContent), /Juega con Negras/);
  // A new visit without ?lang= keeps the choice.
  await page.goto(base + "/table/1/assistant");
  await page.waitForFunction(() => document.documentElement.lang === "es");
  await context.close();
});
