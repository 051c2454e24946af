// The player's page as a blind player hears it: GNOME Orca reading the
// page in Debian's chromium on a virtual display (Xvfb), its speech caught
// at speech-dispatcher, keys typed as a person types them (xdotool, real X
// key events, which Orca hears too). Two whole games, one in German and
// one in Spanish (page, table voice and Orca in that language); what Orca
// says is compared with what the table said (its announcements, its
// state), and with the page's catalogue for the page's own words. The
// German game loses its connection to the server through a proxy and gets
// it back.
//
// Everything runs privately: its own D-Bus session (with its AT-SPI bus),
// X display, speech-dispatcher (the generic output module writes each
// text with its language to a file, with ALSA's null device for sound:
// Orca 43 stalls without an audio device otherwise), Orca (its own HOME)
// and tactus servers. Waits are on conditions (something said, a state
// reached) with generous limits; no sleep is an assertion.
//
// Run by scripts/test after `cargo build`; TACTUS_BIN names the binary.
// Needs the Debian packages orca, xvfb, at-spi2-core, speech-dispatcher,
// xdotool, dbus (scripts/test installs them) and tests/pages/node_modules.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import net from "node:net";
import { api, foolsMate, roundOne, startTeamServer } from "../pages/team_event.mjs";

const here = dirname(new URL(import.meta.url).pathname);
const root = join(here, "..", "..");
const require = createRequire(join(root, "tests", "pages", "package.json"));
const { chromium } = require("playwright-core");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");

// Every wait's limit: far above what a loaded machine needs; a wait that
// reaches it fails the test with what was said meanwhile.
const LIMIT_MS = 30000;

const work = mkdtempSync(join(tmpdir(), "tactus-sr-"));
const procs = [];
let env, browser;

function track(proc, name) {
  procs.push(proc);
  proc.on("error", (e) => { throw new Error(`${name}: ${e.message}`); });
  return proc;
}

async function until(what, check, limit = LIMIT_MS) {
  const end = Date.now() + limit;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${limit} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// ---------------------------------------------------------------- speech

const spokenFile = join(work, "spoken.txt");

// What speech-dispatcher was given, as [language, text] lines.
function spoken() {
  if (!existsSync(spokenFile)) return [];
  return readFileSync(spokenFile, "utf8").split("\n").filter((l) => l.includes("\t"))
    .map((l) => { const i = l.indexOf("\t"); return [l.slice(0, i), l.slice(i + 1)]; });
}
// Compared as words: case, punctuation and spacing aside (speech-dispatcher
// and Orca treat punctuation their own ways).
const words = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
const mark = () => spoken().length;
const since = (m) => spoken().slice(m);
const heardSince = (m) => words(since(m).map(([, t]) => t).join(" "));

// Waits until everything in `expected` (texts, in this order) was said
// after mark `m`; returns what was said.
async function hear(m, expected, what) {
  const list = (Array.isArray(expected) ? expected : [expected]).map(words);
  try {
    return await until(what || list.join(" / "), () => {
      const said = heardSince(m);
      let at = 0;
      for (const w of list) {
        const i = said.indexOf(w, at);
        if (i < 0) return null;
        at = i + w.length;
      }
      return said;
    });
  } catch (e) {
    throw new Error(`${e.message}\nOrca said: ${JSON.stringify(since(m))}`);
  }
}

// ---------------------------------------------------------------- keys

function xdo(...args) {
  execFileSync("xdotool", args, { env });
}
const key = (...keys) => xdo("key", "--clearmodifiers", ...keys);
function typeLine(text) {
  xdo("type", "--delay", "20", text);
  key("Return");
}

// ------------------------------------------------------ the private desktop

function startSpeech() {
  const conf = join(work, "speechd");
  mkdirSync(join(conf, "modules"), { recursive: true });
  writeFileSync(join(conf, "speechd.conf"), [
    `LogDir "${join(work, "log")}"`, "LogLevel 3",
    'AddModule "capture" "sd_generic" "capture.conf"', "DefaultModule capture",
    'AudioOutputMethod "alsa"', 'AudioALSADevice "null"',
    'SymbolsPreproc "char"', 'SymbolsPreprocFile "symbols.dic"', 'SymbolsPreprocFile "orca.dic"',
    'SymbolsPreprocFile "orca-chars.dic"', "",
  ].join("\n"));
  // Each text whole (no chunks at commas), with the language it was sent in.
  writeFileSync(join(conf, "modules", "capture.conf"), [
    `GenericExecuteSynth "printf '%s\\\\t%s\\\\n' '$LANGUAGE' '$DATA' >> ${spokenFile}"`,
    'GenericDelimiters ""', "GenericMaxChunkLength 100000",
    ...["en", "de", "de-DE", "es", "es-ES"].flatMap((l) => [`GenericLanguage "${l}" "${l}" "utf-8"`, `AddVoice "${l}" "MALE1" "${l}"`]),
    "",
  ].join("\n"));
  mkdirSync(join(work, "log"), { recursive: true });
  const sock = join(work, "speechd.sock");
  track(spawn("speech-dispatcher", ["-s", "-t", "0", "-C", conf, "-c", "unix_socket", "-S", sock],
    { env, stdio: "ignore" }), "speech-dispatcher");
  return sock;
}

async function startDesktop() {
  const home = join(work, "home");
  const runtime = join(work, "run");
  mkdirSync(home, { recursive: true });
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  env = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"), XDG_CACHE_HOME: join(home, ".cache"), LANG: "C.UTF-8" };
  // A D-Bus session of our own: the AT-SPI bus is started from it.
  const dbus = track(spawn("dbus-daemon", ["--session", "--nofork", "--print-address=1"], { env, stdio: ["ignore", "pipe", "ignore"] }), "dbus-daemon");
  env.DBUS_SESSION_BUS_ADDRESS = await new Promise((resolve, reject) => {
    let out = "";
    dbus.stdout.on("data", (c) => { out += c; if (out.includes("\n")) resolve(out.trim()); });
    dbus.on("exit", () => reject(new Error("dbus-daemon exited")));
  });
  // An X display of our own: Xvfb picks a free number and writes it.
  const xvfb = track(spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
    { env, stdio: ["ignore", "ignore", "ignore", "pipe"] }), "Xvfb");
  env.DISPLAY = ":" + await new Promise((resolve, reject) => {
    let out = "";
    xvfb.stdio[3].on("data", (c) => { out += c; if (out.includes("\n")) resolve(out.trim()); });
    xvfb.on("exit", () => reject(new Error("Xvfb exited")));
  });
  env.SPEECHD_ADDRESS = "unix_socket:" + startSpeech();
  env.GTK_MODULES = "gail:atk-bridge";
  execFileSync("gsettings", ["set", "org.gnome.desktop.interface", "toolkit-accessibility", "true"], { env });
}

// Orca, speaking `lang` (its locale: its own words and the language it
// sets at speech-dispatcher). Returns a stop function.
let orca = null;
async function startOrca(lang) {
  if (orca) await stopOrca();
  const m = mark();
  const locale = { de: "de_DE.UTF-8", es: "es_ES.UTF-8" }[lang];
  // The voice a German (Spanish) player gives Orca: its language is what
  // Orca sets at speech-dispatcher for everything it says (Orca 43 does
  // not follow a page's lang attributes; see docs/screen-readers.md).
  const voices = { default: { established: true, family: { name: lang, lang, dialect: "", variant: null } } };
  const settingsDir = join(env.XDG_DATA_HOME, "orca");
  mkdirSync(settingsDir, { recursive: true });
  // Keys are not echoed: the player hears them as typed, the test needs
  // only what the page makes Orca say, and half the speech is gone from a
  // loaded machine's work.
  const prefs = { voices, enableKeyEcho: false, enableEchoByCharacter: false, enableEchoByWord: false };
  writeFileSync(join(settingsDir, "user-settings.conf"), JSON.stringify({
    general: { firstStart: false, ...prefs },
    pronunciations: {},
    keybindings: {},
    profiles: { default: { profile: ["Default", "default"], pronunciations: {}, keybindings: {}, ...prefs } },
  }));
  // Its debug log: everything it sent to speech-dispatcher (orcaSent),
  // and what it decided and why (kept with TACTUS_SR_KEEP=1).
  orca = track(spawn("orca", ["--replace", "--debug-file", orcaLog(lang)], { env: { ...env, LANG: locale, LANGUAGE: lang }, stdio: "ignore" }), "orca");
  // Its first words: it is listening.
  await until("Orca to start", () => since(m).length > 0);
}
async function stopOrca() {
  const p = orca;
  orca = null;
  p.kill("SIGTERM");
  const gone = () => p.exitCode !== null || p.signalCode !== null;
  await until("Orca to stop", gone, 5000).catch(() => p.kill("SIGKILL"));
  await until("Orca to be killed", gone);
}

// ------------------------------------------------------ tactus and a proxy

function readTokens(dir) {
  const out = {};
  let section = null;
  for (const line of readFileSync(join(dir, "tokens.toml"), "utf8").split("\n")) {
    const m = line.match(/^\[tables\."?([^"\]]+)"?\]/);
    if (m) { section = out[m[1]] = {}; continue; }
    const kv = line.match(/^(\w+)\s*=\s*"([^"]*)"/);
    if (kv && section) section[kv[1]] = kv[2];
  }
  return out;
}

async function startServer(voice) {
  const dir = mkdtempSync(join(work, "tactus-"));
  const port = await freePort();
  writeFileSync(join(dir, "venue.toml"), '[[table]]\nid = "1"\nblind = "black"\n');
  const proc = track(spawn(bin, ["serve", "--config", join(dir, "venue.toml"), "--listen", `127.0.0.1:${port}`,
    "--data", join(dir, "data"), "--audio", "none", "--voice", join(root, "voices", voice)],
  { stdio: ["ignore", "pipe", "inherit"] }), "tactus");
  await new Promise((resolve, reject) => {
    proc.stdout.on("data", (c) => { if (String(c).includes("tactus is serving")) resolve(); });
    proc.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  const base = `http://127.0.0.1:${port}`;
  const tokens = readTokens(join(dir, "data"))["1"];
  const state = async () => (await fetch(base + "/api/tables/1")).json();
  // The sighted side's moves and claims, as the assistant enters them.
  async function assistant(path, body) {
    const r = await fetch(base + "/api/tables/1" + path, {
      method: "POST", body: JSON.stringify(body),
      headers: { "Authorization": "Bearer " + tokens.assistant, "Content-Type": "application/json" },
    });
    assert.ok(r.ok, `${path} ${JSON.stringify(body)}: ${r.status} ${await r.text()}`);
    return state();
  }
  return { proc, base, port, tokens, state, assistant };
}

// A TCP proxy between the browser and tactus, as a venue's Wi-Fi: `drop`
// cuts every connection and refuses new ones; `restore` lets them in.
async function startProxy(target) {
  const port = await freePort();
  const sockets = new Set();
  let server = null;
  function listen() {
    server = net.createServer((client) => {
      const upstream = net.connect(target, "127.0.0.1");
      for (const s of [client, upstream]) { sockets.add(s); s.on("close", () => sockets.delete(s)); s.on("error", () => {}); }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    return new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  }
  await listen();
  return {
    base: `http://127.0.0.1:${port}`,
    drop: () => new Promise((resolve) => { server.close(resolve); for (const s of sockets) s.destroy(); }),
    restore: listen,
    close: () => new Promise((resolve) => { server.close(() => resolve()); for (const s of sockets) s.destroy(); }),
  };
}

// ---------------------------------------------------------------- setup

before(async () => {
  await startDesktop();
  browser = await chromium.launch({
    headless: false,
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    env,
    args: ["--force-renderer-accessibility", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--window-position=0,0", "--window-size=1280,1000"],
  });
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  for (const p of procs.reverse()) if (p.exitCode === null) p.kill("SIGKILL");
  // TACTUS_SR_KEEP=1 keeps what was said and the logs, for a look.
  if (process.env.TACTUS_SR_KEEP) console.log("kept: " + work);
  else rmSync(work, { recursive: true, force: true });
});

// The player's page, opened through `at` as a player follows a link: a
// page with the link, in the browser's window with the keyboard's focus
// (the X focus) and the link focused, and Enter. Orca hears the player's
// page load in the active window with the focus in the document, which is
// when it reads a page at load (a page loaded behind the address bar's
// focus is not read); on the link's page it starts no say-all (the focus
// is on a link), which would still run as the next page loads.
async function openPlayer(at, token, lang) {
  const page = await openByLink(`${at}/table/1/player?lang=${lang}#token=${token}`, "/table/1/player");
  await playerReady(page);
  return page;
}
// A page opened by following a link to `url`, in the focused window (as
// openPlayer's), once its path is `path`.
async function openByLink(url, path) {
  const page = await browser.newPage();
  await page.setContent(`<title>tactus-sr-start</title><a href="${url}">tactus</a>`);
  await page.bringToFront();
  await page.focus("a");
  const wid = await until("the browser's window", () => {
    try {
      return execFileSync("xdotool", ["search", "--onlyvisible", "--name", "tactus-sr-start"], { env }).toString().trim().split("\n").pop();
    } catch (e) {
      return null; // none yet: xdotool exits 1
    }
  });
  xdo("windowfocus", "--sync", wid);
  key("Return");
  await page.waitForURL((u) => u.pathname === path);
  return page;
}
// The player's page has run its script: its sound set up, the focus in
// the move box.
const playerReady = (page) => page.waitForFunction(() => window.tactusSound && document.activeElement.id === "move-input");
// Everything Orca sent to speech-dispatcher while `lang`'s Orca ran, read
// from its own debug log: also the texts that the next one cut off before
// speech-dispatcher's module got to them, which never reach spokenFile but
// a real synthesizer starts to say.
const orcaLog = (lang) => join(work, `orca-${lang}.debug`);
// The log from character `from` on (a mark is its length so far).
const orcaLogText = (lang, from = 0) => (existsSync(orcaLog(lang)) ? readFileSync(orcaLog(lang), "utf8").slice(from) : "");
function orcaSent(lang, from = 0) {
  // Each as Orca handed it over, in SSML (its say-all speaks only this
  // way, not through the "SPEECH OUTPUT" lines).
  const unescape = (t) => t.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
  return orcaLogText(lang, from).split("\n")
    .map((l) => l.match(/ - SPEECH DISPATCHER: Speaking '(<speak>.*<\/speak>)'/)).filter(Boolean).map((m) => unescape(m[1]));
}

// What Orca says as the page loads: the move box (its label, heard), then
// where the game stands (the page's one line in the answers: the summary),
// and otherwise Orca's own words (the window, "loading", the landmark,
// region and form around the move box), never the page's content. Two
// things read the page at load unless it is built against them: "say all
// on load" (Orca's default) reads from the top, the heading first, unless
// the focus is in the move box by the time the page has loaded; and each
// select box in view whose option Chromium reports as the page loads is
// presented as if it had the focus (its label and its option, one after
// the other), which also takes Orca's idea of the focus away from the
// move box.
//
// Where the game stands is not waited for: on a loaded machine Orca's
// flood guard (over 50 events queued) drops events of the page's load,
// that line's among them (seen once in five runs at load average 13).
// The page tests check the line itself.
async function quietLoad(page, lang, start, from = 0) {
  const label = await page.evaluate(() => document.querySelector('label[for="move-input"]').textContent);
  await hear(start, label, "the move box");
  await page.waitForFunction(() => !document.getElementById("summary").textContent.endsWith("…"));
  const summary = await page.evaluate(() => document.getElementById("summary").textContent);
  // Orca handles events in order: once it has handled the page's
  // load-complete, it has handled everything the load raised before it.
  const title = await page.title();
  await until("Orca to handle the page's load",
    () => orcaLogText(lang, from).includes(`OBJECT EVENT: document:load-complete (0, 0, ${title})`));
  // Keys reach the move box only once Orca is in focus mode in the page;
  // typed before, browse mode takes them as quick keys ("e": the next
  // entry, "5": the next heading of level 5), as a reload once showed.
  await until("Orca to use focus mode in the page",
    () => orcaLogText(lang, from).includes("WEB: Using focus mode"));
  // The page's own line of where the game stands is not the page read:
  // it may hold any word (the table's "board connected").
  const sent = orcaSent(lang, from).filter((t) => !words(t).startsWith(words(summary)));
  const all = " " + words(sent.join(" ")) + " ";
  const { heading, texts } = await page.evaluate(() => ({
    heading: document.querySelector("h1").textContent || "",
    texts: [...document.querySelectorAll("h2, h3, label, summary, option, #board-help")]
      .filter((el) => el.id !== "move-h" && el.getAttribute("for") !== "move-input")
      .map((el) => el.textContent || ""),
  }));
  // The heading is in the window's title too: a say-all says it alone.
  assert.ok(!sent.some((t) => words(t) === words(heading)), `Orca read the page from the top at load: ${JSON.stringify(sent)}`);
  for (const text of texts.map(words).filter((w) => w.length >= 6)) {
    assert.ok(!all.includes(" " + text + " "), `Orca read the page at load ("${text}"): ${JSON.stringify(sent)}`);
  }
}

// A message of the page's catalogue, as the page's `tactus.t` fills it (the
// pages' scripts are modules: no global to call, so it is read from the
// page's own messages).
const catalogue = (page, id, args) => page.evaluate(([i, a]) => {
  let text = JSON.parse(document.getElementById("messages").textContent)[i] || i;
  for (const [k, v] of Object.entries(a || {})) text = text.split("{$" + k + "}").join(String(v));
  return text;
}, [id, args]);

// A move typed by the player and heard as the table says it.
async function playerMoves(page, server, text, count) {
  const m = mark();
  typeLine(text);
  const s = await until(`${text} to be played`, async () => { const s = await server.state(); return s.moves.length >= count && s; });
  await hear(m, s.last_announcement, `${text} as the table said it`);
  return s;
}
// A move of the sighted side, heard as the table says it.
async function opponentMoves(server, move) {
  const m = mark();
  const s = await server.assistant("/move", { move });
  await hear(m, s.last_announcement, `${move} as the table said it`);
  return s;
}

// Every announcement line the synthesizer got carries `lang`.
function assertLanguage(m, texts, lang) {
  const lines = since(m);
  for (const text of texts) {
    const w = words(text);
    const line = lines.find(([, t]) => words(t).includes(w));
    assert.ok(line, `"${text}" was not said`);
    assert.match(line[0], new RegExp("^" + lang), `"${text}" reached the synthesizer as ${line[0]}`);
  }
}

// The board walked square by square (Ctrl+Home, then along each rank and
// down), Orca's words checked on every square: the square and its piece
// as the page's catalogue says them, the rank as Orca's row, the file as
// its column (a = 1), no row or column of the drawn coordinates.
async function walkBoard(page, server, lang, ranks) {
  const s = await server.state();
  const board = {};
  s.fen.split(" ")[0].split("/").forEach((row, i) => {
    let f = 0;
    for (const ch of row) { if (/\d/.test(ch)) f += Number(ch); else { board["abcdefgh"[f] + (8 - i)] = ch; f++; } }
  });
  const rowWord = { de: "zeile", es: "fila" }[lang];
  const colWord = { de: "spalte", es: "columna" }[lang];
  const name = async (sq) => {
    const ch = board[sq];
    const piece = ch ? await catalogue(page, "js-colored-piece", {
      color: await catalogue(page, ch === ch.toUpperCase() ? "js-white-lower" : "js-black-lower"),
      piece: await catalogue(page, "js-piece-" + ch.toLowerCase()),
    }) : await catalogue(page, "js-empty");
    return catalogue(page, "js-board-square", { square: sq, piece });
  };
  let m = mark();
  typeLine("b");
  await until("the board to have the focus", () => page.evaluate(() => document.activeElement.getAttribute("role") === "gridcell"));
  m = mark();
  key("ctrl+Home");
  // Black's side: rank 1 at the top, file h at the left.
  const files = "hgfedcba";
  let walked = 0, lastRank = 8, lastFile = 5;
  for (let r = 1; r <= ranks; r++) {
    for (let i = 0; i < 8; i++) {
      const f = r % 2 === 1 ? files[i] : files[7 - i];
      const sq = f + r;
      if (walked > 0) { m = mark(); key(i === 0 ? "Down" : (r % 2 === 1 ? "Right" : "Left")); }
      const col = "abcdefgh".indexOf(f) + 1;
      // Orca says the row when it changes, then the column when it does.
      const expected = [await name(sq)];
      if (r !== lastRank) expected.push(`${rowWord} ${r}`);
      if (col !== lastFile) expected.push(`${colWord} ${col}`);
      const said = await hear(m, expected, `square ${sq} with its rank as row and its file as column`);
      assert.doesNotMatch(said, new RegExp(`${rowWord} 9|${colWord} 9`), `${sq}: no header row or column counted`);
      lastRank = r;
      lastFile = col;
      walked++;
    }
  }
  key("Escape");
  await until("the move box to have the focus again", () => page.evaluate(() => document.activeElement.id === "move-input"));
  return walked;
}

test("a game in German through Orca: moves, refusals, the clock, the board, a lost connection, a draw claimed", async () => {
  const server = await startServer("de-appendix-d");
  const proxy = await startProxy(server.port);
  await startOrca("de");
  const start = mark();
  const page = await openPlayer(proxy.base, server.tokens.player, "de");
  try {
    // The move box's label is heard, nothing of the page before it, and
    // the command help is not read.
    await quietLoad(page, "de", start);
    // Reloaded by keyboard (F5), as a player does when something seems
    // wrong: Orca's focus is in the page this time as it loads again.
    {
      const m = mark();
      const from = orcaLogText("de").length;
      const loaded = page.waitForEvent("load");
      key("F5");
      await loaded;
      await playerReady(page);
      await quietLoad(page, "de", m, from);
    }
    assert.doesNotMatch(heardSince(start), /beliebiger notation/);

    // Out of turn: whose turn it is, in the page's language, once.
    let m = mark();
    typeLine("e5");
    await hear(m, await catalogue(page, "js-not-your-turn", { side: "Weiß" }));

    const announced = [];
    let s = await opponentMoves(server, "Nf3");
    announced.push(s.last_announcement);

    // An illegal move: one refusal with its reason, no second message in
    // the table's words.
    m = mark();
    typeLine("Ke7");
    await hear(m, [await catalogue(page, "js-refused-illegal", { move: "Ke7" }),
      await catalogue(page, "js-refused-own-piece", { square: "e7", piece: "Bauer von Schwarz" })]);
    s = await playerMoves(page, server, "Sf6", 2);
    announced.push(s.last_announcement);
    assert.doesNotMatch(heardSince(m), /regelwidrig/, "the table's 'illegal move' is not said besides");

    // The connection drops: said at once; the opponent moves meanwhile; a
    // move typed now is said to be unsent.
    m = mark();
    await proxy.drop();
    await hear(m, await catalogue(page, "js-connection-lost-alert"));
    s = await server.assistant("/move", { move: "Ng1" });
    const meanwhile = s.last_announcement;
    m = mark();
    typeLine("Sg8");
    await hear(m, await catalogue(page, "js-not-sent", { move: "Sg8" }));
    // Back: said at once, what was announced meanwhile once, then the clock.
    m = mark();
    await proxy.restore();
    const clockWord = (await catalogue(page, "js-clock-now", { white: "", black: "" })).split(":")[0];
    const back = await hear(m, [await catalogue(page, "js-connection-back"), await catalogue(page, "js-while-away"), meanwhile, clockWord]);
    assert.equal(back.split(words(meanwhile)).length - 1, 1, "what was missed is said once");
    // The move typed offline was never sent.
    m = mark();
    typeLine("cl");
    await until("the time left", async () => (await server.state()).last_announcement !== meanwhile);
    s = await server.state();
    assert.equal(s.moves.length, 3, "the move typed offline was not made");
    await hear(m, s.last_announcement, "the time left");
    announced.push(s.last_announcement);
    m = mark();
    typeLine("cu");
    await until("the time used", async () => (await server.state()).last_announcement !== s.last_announcement);
    s = await server.state();
    await hear(m, s.last_announcement, "the time used");
    announced.push(s.last_announcement);

    // The whole board, square by square.
    assert.equal(await walkBoard(page, server, "de", 8), 64);

    // To a threefold repetition, claimed by White: the game's end.
    s = await playerMoves(page, server, "Sg8", 4);
    announced.push(s.last_announcement);
    announced.push((await opponentMoves(server, "Nf3")).last_announcement);
    announced.push((await playerMoves(page, server, "Sf6", 6)).last_announcement);
    announced.push((await opponentMoves(server, "Ng1")).last_announcement);
    announced.push((await playerMoves(page, server, "Sg8", 8)).last_announcement);
    m = mark();
    s = await server.assistant("/draw/claim/threefold", { side: "white" });
    assert.ok(s.result, "the claim ends the game");
    await hear(m, s.last_announcement, "the claim and the result");
    announced.push(s.last_announcement);
    // The help, on request only: never read as the focus came back to
    // the move box (after the board, after each move).
    assert.doesNotMatch(heardSince(start), /beliebiger notation/);
    m = mark();
    typeLine("h");
    await hear(m, "Geben Sie einen Zug in beliebiger Notation ein");
    // Every announcement reached the synthesizer in German.
    assertLanguage(start, announced, "de");
    assert.equal(s.moves.length, 8);
  } finally {
    await page.close();
    await proxy.close();
    server.proc.kill("SIGKILL");
  }
});

test("a game in Spanish through Orca: refusals, the clock, the first rank of the board, checkmate", async () => {
  const server = await startServer("es-apendice-d");
  await startOrca("es");
  const start = mark();
  const page = await openPlayer(server.base, server.tokens.player, "es");
  try {
    await quietLoad(page, "es", start);
    let m = mark();
    typeLine("d5");
    await hear(m, await catalogue(page, "js-not-your-turn", { side: "Blancas" }));
    const announced = [];
    announced.push((await opponentMoves(server, "f3")).last_announcement);
    m = mark();
    typeLine("Re6");
    await hear(m, await catalogue(page, "js-refused-illegal", { move: "Re6" }));
    announced.push((await playerMoves(page, server, "e5", 2)).last_announcement);
    announced.push((await opponentMoves(server, "g4")).last_announcement);
    for (const c of ["cl", "cu"]) {
      const before = (await server.state()).last_announcement;
      m = mark();
      typeLine(c);
      await until(c, async () => (await server.state()).last_announcement !== before);
      const s = await server.state();
      await hear(m, s.last_announcement, c);
      announced.push(s.last_announcement);
    }
    assert.equal(await walkBoard(page, server, "es", 1), 8);
    // Dh4: the Spanish queen's letter; checkmate ends the game.
    const s = await playerMoves(page, server, "Dh4", 4);
    assert.ok(s.result, "checkmate ends the game");
    announced.push(s.last_announcement);
    assert.doesNotMatch(heardSince(start), /cualquier notación/);
    assertLanguage(start, announced, "es");
  } finally {
    await page.close();
    server.proc.kill("SIGKILL");
  }
});

test("a team captain's page through Orca, in German: the team read at load, the line-up's boxes with their state, a result said as it arrives", async () => {
  const dir = mkdtempSync(join(work, "team-"));
  const s = await startTeamServer(bin, root, dir);
  track(s.proc, "tactus (team event)");
  await startOrca("de");
  const start = mark();
  // The link as a braille reader types it from the card: capitals.
  const code = s.captains["1"].toUpperCase();
  const page = await openByLink(`${s.base}/c/${code}?lang=de`, `/c/${code}`);
  try {
    // At load Orca reads the page from the top: the team, no round yet,
    // the line-up's heading.
    // the line-up's heading, its boxes, down to the form's button; then
    // the keys (pressed while Orca still reads, they race its reading).
    const [h1, h2, button] = await page.evaluate(() => [document.querySelector("h1").textContent,
      document.querySelectorAll("h2")[1].textContent, document.querySelector("form button").textContent]);
    await hear(start, [h1, h2, "Player 1.1", "Player 1.3", "nicht ausgewählt", button], "the page read from the top to the form's button");
    // Tab: the first player's box, with its name and its state (Orca's
    // German words for a ticked box: "ausgewählt").
    // (Orca's reading leaves its caret at the page's end: Ctrl+Home to the
    // top first, as a captain does to start again.)
    key("ctrl+Home");
    let m = mark();
    key("Tab");
    await hear(m, ["Player 1.1", "ausgewählt"], "the first box, ticked");
    m = mark();
    key("space");
    await hear(m, "nicht ausgewählt", "the box unticked");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("value")), "1");
    m = mark();
    key("space");
    await hear(m, "ausgewählt", "the box ticked again");
    // Round 1 set up and started; board 1 finishes. The page says what
    // changed, once, without the focus moving.
    await api(s, "POST", "/api/rounds?round=1", s.venue, roundOne([[1, [1, 2], 2, [4, 5]], [3, [7, 8], 4, [10, 11]]]), "text/plain");
    await api(s, "POST", "/api/rounds/1/start", s.venue);
    const me = await api(s, "GET", "/api/players/me", s.players["1"]);
    const them = s.players[String(me.opponent.start_rank)];
    const [white, black] = me.colour === "white" ? [s.players["1"], them] : [them, s.players["1"]];
    m = mark();
    await foolsMate(s, me.table, white, black);
    const news = await until("the page to say the result", () => page.evaluate(() => {
      const t = document.getElementById("match-news").textContent || "";
      return t.includes("0-1") ? t : null;
    }));
    await hear(m, news.split(". ").filter((t) => t.includes("0-1")), "the result as the page says it");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("value")), "1", "the focus stays on the box");
  } finally {
    await page.close();
    s.proc.kill("SIGKILL");
  }
});
