// Page tests in Debian's chromium, driven by playwright-core: a game played
// with the keyboard alone on the assistant's and the player's pages, every
// announcement arriving in the player's live region as text, and an axe-core
// scan of the three pages with no violations.
//
// Run by scripts/test after `cargo build`; TACTUS_BIN names the binary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

// A `tactus serve` on a free port with its own data folder, of the default
// venue or of `venue` (a configuration's text): { proc, base, tokens (table
// 1's), data }.
async function startServer(venue) {
  const dir = mkdtempSync(join(tmpdir(), "tactus-pages-"));
  const port = await freePort();
  const config = [];
  if (venue) {
    writeFileSync(join(dir, "venue.toml"), venue);
    config.push("--config", join(dir, "venue.toml"));
  }
  const proc = spawn(bin, ["serve", ...config, "--listen", `127.0.0.1:${port}`, "--data", join(dir, "data"), "--audio", "none",
    "--voice", join(root, "voices", "de-appendix-d")], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus serve did not start")), 60000);
    proc.stdout.on("data", (chunk) => {
      if (String(chunk).includes("tactus is serving")) { clearTimeout(timer); resolve(); }
    });
    proc.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  return { proc, base: `http://127.0.0.1:${port}`, tokens: readTokens(join(dir, "data"))["1"], data: dir };
}

function stopServer(s) {
  s.proc.kill("SIGKILL");
  rmSync(s.data, { recursive: true, force: true });
}

let first;
before(async () => {
  // Table 1 as the default venue has it (the blind player Black), with the
  // players' names.
  first = await startServer('[[table]]\nid = "1"\nblind = "black"\nwhite = "Weiss, Wilma"\nblack = "Schwarz, Sam"\n');
  ({ base, tokens, data } = first);
  server = first.proc;
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

async function open(path, token, at = base) {
  const page = await browser.newPage();
  await page.goto(at + path + (token ? "#token=" + token : ""));
  return page;
}

test("a game by keyboard alone, every announcement in the player's live region", async () => {
  const player = await open("/table/1/player", tokens.player);
  const assistant = await open("/table/1/assistant", tokens.assistant);
  await player.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black"));
  // Out of turn: refused with whose turn it is, in the page's language.
  await player.keyboard.type("e5");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("Not your move: White is to move."));
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
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("white knight: b1, f3"));
  // An illegal move is refused in words, once, in the page's language,
  // and changes nothing.
  await player.keyboard.type("Ke5");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("Ke5 is not a legal move here."));
  await player.keyboard.type("Ke7");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("Ke7 is not a legal move here. e7 holds a piece of your own: black pawn."));
  assert.doesNotMatch(await player.evaluate(() => document.getElementById("log").textContent), /regelwidrig/i);
  const state = await (await fetch(base + "/api/tables/1")).json();
  assert.deepEqual(state.moves, ["e4", "Nf6", "Nf3"]);
  await player.close();
  await assistant.close();
});

test("a new round: the player's page says the round, the colour and the opponent; the arbiter's overview lists it", async () => {
  const s = await startServer('[[table]]\nid = "1"\nblind = "black"\n\n[[player]]\nname = "Bea"\nstart_rank = 2\ntable = "1"\n');
  try {
    const venue = readFileSync(join(s.data, "data", "tokens.toml"), "utf8").match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1];
    const player = await open("/table/1/player", s.tokens.player, s.base);
    await player.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black"));
    const r = await fetch(s.base + "/api/rounds", {
      method: "POST",
      headers: { "Authorization": "Bearer " + venue, "Content-Type": "application/json" },
      body: JSON.stringify({ round: "2", games: [{ table: "1", white: "Bea", black: "Carla" }] }),
    });
    assert.equal(r.status, 200, await r.text());
    await player.waitForFunction(() => document.getElementById("answers").textContent.includes("A new game. Round 2. You play White"));
    assert.match(await player.evaluate(() => document.getElementById("summary").textContent), /Carla/);
    const arbiter = await open("/arbiter", venue, s.base);
    await arbiter.waitForFunction(() => document.getElementById("rounds-list").textContent.includes("Table 1: Bea – Carla, not begun"));
    await arbiter.keyboard.press("Tab");
    assert.deepEqual(await axe(arbiter), []);
    await player.close();
    await arbiter.close();
  } finally {
    stopServer(s);
  }
});

test("a championship: each player's own link, typed in capitals as a braille card reads, follows them from board to board; a draw offered and accepted by keyboard; the standings", async () => {
  const players = ["Ana", "Bea", "Cid", "Dan"].map((n, i) => `[[player]]\nname = "${n}"\nstart_rank = ${i + 1}\n`).join("\n");
  const s = await startServer('[[table]]\nid = "board1"\nboard = "none"\n\n[[table]]\nid = "board2"\nboard = "none"\n\n' + players);
  try {
    const text = readFileSync(join(s.data, "data", "tokens.toml"), "utf8");
    const venue = text.match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1];
    const codes = {};
    for (const m of text.split("[players]")[1].matchAll(/^"?(\d+)"?\s*=\s*"([0-9a-z]+)"/gm)) codes[m[1]] = m[2];
    assert.equal(Object.keys(codes).length, 4, text);
    const round = async (n, games) => {
      const r = await fetch(s.base + "/api/rounds", {
        method: "POST",
        headers: { "Authorization": "Bearer " + venue, "Content-Type": "application/json" },
        body: JSON.stringify({ round: String(n), games }),
      });
      assert.equal(r.status, 200, await r.text());
    };
    await round(1, [{ white: "Ana", black: "Bea" }, { white: "Cid", black: "Dan" }]);
    // The arbiter starts Ana's game: no move is made before (issue 43).
    // (Board 2's game is never begun: round 2 may replace it.)
    const started = await fetch(s.base + "/api/tables/board1/clock/start", { method: "POST", headers: { "Authorization": "Bearer " + venue } });
    assert.equal(started.status, 200, await started.text());
    // The link as a braille reader types it from the card: capitals, dashes.
    const typed = (code) => "/P/" + code.match(/.{4}/g).join("-").toUpperCase();
    const summary = () => document.getElementById("summary").textContent;
    const ana = await browser.newPage();
    await ana.goto(s.base + typed(codes["1"]));
    assert.match(ana.url(), /\/table\/board1\/player\?plays=white$/);
    await ana.waitForFunction(() => document.getElementById("summary").textContent.includes("You play White against Bea"));
    const bea = await browser.newPage();
    await bea.goto(s.base + typed(codes["2"]));
    await bea.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black against Ana"));
    const type = async (page, what) => {
      await page.focus("#move-input");
      await page.keyboard.type(what);
      await page.keyboard.press("Enter");
    };
    await type(ana, "e4");
    await bea.waitForFunction(() => document.getElementById("summary").textContent.includes("Black to move"));
    await type(bea, "e5");
    await type(bea, "o");
    await ana.waitForFunction(() => document.getElementById("log").textContent.length > 0);
    await ana.waitForFunction(async () => {
      const r = await fetch("/api/tables/board1");
      return (await r.json()).draw_offer === "black";
    });
    await type(ana, "a");
    await ana.waitForFunction(() => document.getElementById("summary").textContent.includes("1/2-1/2"));
    // Round 2: Ana is Black at board 1, Bea White at board 2; each page
    // moves to its player's game by itself.
    await round(2, [{ white: "Dan", black: "Ana" }, { white: "Bea", black: "Cid" }]);
    await ana.waitForURL(/\/table\/board1\/player\?plays=black$/, { timeout: 20000 });
    await ana.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black against Dan"));
    await bea.waitForURL(/\/table\/board2\/player\?plays=white$/, { timeout: 20000 });
    await bea.waitForFunction(() => document.getElementById("summary").textContent.includes("You play White against Cid"));
    // Another table's game is not hers to move in.
    const r = await fetch(s.base + "/api/tables/board1/move", {
      method: "POST", headers: { "Authorization": "Bearer " + codes["2"], "Content-Type": "application/json" },
      body: JSON.stringify({ move: "d4" }),
    });
    assert.equal(r.status, 403);
    await type(ana, "st");
    await ana.waitForFunction(() => document.getElementById("answers").textContent.includes("Leaders:"));
    assert.match(await ana.evaluate(() => document.getElementById("answers").textContent), /You are 1\. with 0\.5 points/);
    assert.deepEqual(await axe(ana), []);
    // The TRF (personal data) is fetched with the venue arbiter's token:
    // here none was imported, and the page says so (not "needs a token").
    const arbiter = await open("/arbiter", venue, s.base);
    await arbiter.click("#trf-download");
    await arbiter.waitForFunction(() => document.getElementById("rounds-status").textContent.includes("no TRF file has been imported"));
    await arbiter.close();
    const standings = await open("/standings", null, s.base);
    assert.equal(await standings.evaluate(() => document.querySelectorAll("tbody tr").length), 4);
    assert.deepEqual(await axe(standings), []);
    // Sorted from the keyboard: by name (ascending, then descending), said
    // in the status line and in aria-sort.
    const names = () => standings.evaluate(() => [...document.querySelectorAll("tbody th")].map((th) => th.textContent));
    await standings.focus("thead th:nth-child(2) button");
    await standings.keyboard.press("Enter");
    assert.deepEqual(await names(), ["Ana", "Bea", "Cid", "Dan"]);
    assert.equal(await standings.evaluate(() => document.querySelector("thead th:nth-child(2)").getAttribute("aria-sort")), "ascending");
    await standings.keyboard.press("Space");
    assert.deepEqual(await names(), ["Dan", "Cid", "Bea", "Ana"]);
    assert.match(await standings.evaluate(() => document.getElementById("sort-status").textContent), /Sorted by Name, descending\.$/);
    assert.equal(await standings.evaluate(() => document.querySelector("thead th:first-child").getAttribute("aria-sort")), null);
    assert.deepEqual(await axe(standings), []);
    for (const p of [ana, bea, standings]) await p.close();
  } finally {
    stopServer(s);
  }
});

test("both players blind: the arbiter's page gives the second blind player's link of the current game, then the next game's", async () => {
  const tty = (n) => join(tmpdir(), "tactus-no-such-tty-" + n);
  const s = await startServer('[[table]]\nid = "1"\nblind = "black"\nboard = "peg:' + tty("a") + '"\nopponent_board = "peg:' + tty("b") + '"\n');
  try {
    const venue = readFileSync(join(s.data, "data", "tokens.toml"), "utf8").match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1];
    const arbiter = await open("/arbiter/1", s.tokens.arbiter, s.base);
    await arbiter.waitForFunction(() => !document.getElementById("second-blind").hidden);
    const link = () => arbiter.evaluate(() => document.getElementById("second-blind-link").textContent);
    const note = () => arbiter.evaluate(() => document.getElementById("second-blind-note").textContent);
    const game1 = await link();
    assert.match(game1, /\/t\/[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
    assert.match(await note(), /White in this game only \(game 1,/);
    assert.ok(await arbiter.evaluate(() => document.querySelector("#second-blind-qr svg") !== null), "a QR code");
    assert.deepEqual(await axe(arbiter), []);
    const say = async (l) => (await fetch(s.base + "/api/tables/1/clock/say", {
      method: "POST", headers: { "Authorization": "Bearer " + l.split("/t/")[1] },
    })).status;
    assert.equal(await say(game1), 200);
    // The next round: the page shows the new game's link by itself.
    const r = await fetch(s.base + "/api/rounds", {
      method: "POST",
      headers: { "Authorization": "Bearer " + venue, "Content-Type": "application/json" },
      body: JSON.stringify({ round: "2", games: [{ table: "1", white: "Carla", black: "Bea", blind: "both" }] }),
    });
    assert.equal(r.status, 200, await r.text());
    await arbiter.waitForFunction((old) => document.getElementById("second-blind-link").textContent !== old, game1);
    const game2 = await link();
    assert.notEqual(game2, game1);
    assert.match(await note(), /\(game 2, round 2\)/);
    assert.equal(await say(game1), 403, "the last game's link stops working");
    assert.equal(await say(game2), 200);
    await arbiter.close();
  } finally {
    stopServer(s);
  }
});

// What a screen reader says as the focus lands on a square: its
// accessible name (the cell's words; the glyph is hidden from it), or the
// focused element's id.
async function focused(page) {
  const role = await page.evaluate(() => document.activeElement.getAttribute("role"));
  if (role !== "gridcell") return page.evaluate(() => document.activeElement.id);
  const snap = await page.locator(":focus").ariaSnapshot();
  return snap.match(/gridcell "([^"]*)"/)[1];
}
const boardSays = (page) => page.evaluate(() => document.getElementById("board-status").textContent);

test("a player's settings follow them to another device; the low-time warning said once; their device's rate keeps the pitch", async () => {
  const players = ["Ana", "Bea"].map((n, i) => `[[player]]\nname = "${n}"\nstart_rank = ${i + 1}\n`).join("\n");
  const s = await startServer('[[table]]\nid = "1"\nboard = "none"\ncontrol = "3+0"\n\n' + players);
  const devices = [];
  try {
    const text = readFileSync(join(s.data, "data", "tokens.toml"), "utf8");
    const venue = text.match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1];
    const ana = text.split("[players]")[1].match(/^"?1"?\s*=\s*"([0-9a-z]+)"/m)[1];
    const r = await fetch(s.base + "/api/rounds", {
      method: "POST",
      headers: { "Authorization": "Bearer " + venue, "Content-Type": "application/json" },
      body: JSON.stringify({ round: "1", games: [{ white: "Ana", black: "Bea" }] }),
    });
    assert.equal(r.status, 200, await r.text());
    // A device of her own (a browser profile of its own: nothing shared).
    const device = async () => {
      const context = await browser.newContext();
      devices.push(context);
      const page = await context.newPage();
      await page.goto(s.base + "/p/" + ana);
      await page.waitForFunction(() => document.getElementById("summary").textContent.includes("You play White against Bea"));
      await openMore(page);
      return page;
    };
    const chosen = { "#move-style": "long", "#clock-says": "used", "#low-time": "300", "#rate": "1.3", "#volume": "0.5" };
    const phone = await device();
    for (const [select, value] of Object.entries(chosen)) {
      await phone.focus(select);
      await phone.selectOption(select, value);
    }
    const kept = async () => (await fetch(s.base + "/api/players/me/settings", { headers: { "Authorization": "Bearer " + ana } })).json();
    for (let i = 0; i < 100 && Object.keys(await kept()).length < 5; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await kept(), { move_style: "long", clock: "used", low_time_s: 300, rate: 1.3, volume: 0.5 });
    // Her laptop, never used before, shows them.
    const laptop = await device();
    await laptop.waitForFunction((chosen) => Object.entries(chosen).every(([sel, v]) => document.querySelector(sel).value === v), chosen);
    // Her clock runs with 3 minutes, below her 5: said once, as text.
    const assistant = readTokens(join(s.data, "data"))["1"].assistant;
    const started = await fetch(s.base + "/api/tables/1/clock/start", { method: "POST", headers: { "Authorization": "Bearer " + assistant } });
    assert.equal(started.status, 200, await started.text());
    await laptop.waitForFunction(() => document.getElementById("answers").textContent.includes("Your time is below 5:00"));
    await new Promise((r) => setTimeout(r, 2500));
    const warnings = await laptop.evaluate(() => [...document.getElementById("answers").children].filter((p) => p.textContent.includes("Your time is below")).length);
    assert.equal(warnings, 1);
    // "c" asks for the time used, as she chose.
    await laptop.focus("#move-input");
    await laptop.keyboard.type("c");
    await laptop.keyboard.press("Enter");
    await laptop.waitForFunction(async () => /verbraucht|used/i.test((await (await fetch("/api/tables/1")).json()).last_announcement || ""));
    // The rate: each of the voice's clips said at 0.7 to 1.6 times its
    // speed keeps its length in proportion, and its pitch: a 200 Hz tone
    // stretched keeps 200 Hz (counted by its rising zero crossings).
    const measured = await laptop.evaluate(async () => {
      const ctx = new OfflineAudioContext(1, 48000, 48000);
      const voice = await (await fetch("/api/tables/1/voice")).json();
      const clip = await ctx.decodeAudioData(await (await fetch(voice.clips["move.e"] || Object.values(voice.clips)[0])).arrayBuffer());
      const tone = ctx.createBuffer(1, 48000, 48000);
      tone.getChannelData(0).forEach((_, i, a) => { a[i] = Math.sin(2 * Math.PI * 200 * i / 48000); });
      const out = {};
      for (const rate of [0.7, 1.3, 1.6]) {
        const said = window.tactusStretch(ctx, clip, rate);
        const t = window.tactusStretch(ctx, tone, rate).getChannelData(0);
        let rising = 0;
        for (let i = 1; i < t.length; i++) if (t[i - 1] < 0 && t[i] >= 0) rising++;
        out[rate] = { ratio: said.duration / clip.duration, hz: rising / (t.length / 48000) };
      }
      return out;
    });
    for (const [rate, m] of Object.entries(measured)) {
      assert.ok(Math.abs(m.ratio - 1 / Number(rate)) < 0.01, `rate ${rate}: length ratio ${m.ratio}`);
      assert.ok(Math.abs(m.hz - 200) < 4, `rate ${rate}: ${m.hz} Hz`);
    }
    assert.deepEqual(await axe(laptop), []);
  } finally {
    for (const c of devices) await c.close();
    stopServer(s);
  }
});

// The player's less used questions and settings sit collapsed under
// "more": opened by keyboard (Enter on its summary) when a test needs them.
// The labels of the controls under "more".
const MORE_LABELS = ["Where are the", "What stands on file or rank", "Moves written as", "The clock command tells",
  "Warn me when my time falls below", "Speaking rate of this device", "Volume of this device", "Piece letters", "Language of this page"];
async function openMore(page) {
  if (await page.evaluate(() => document.getElementById("more").open)) return;
  await page.focus("#more > summary");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("more").open);
}

// A screen reader that reads the page from the top as it loads (Orca's
// "say all on load") has nothing to walk before the move box: the focus is
// there before the page has loaded (autofocus), the move box is the first
// control in reading order, and no select box (all are rarely used) is in the
// accessibility tree until "more" is opened. tests/screen_reader/ checks
// what Orca says at load.
test("the player's page at load: the move box first and focused, no select box until the rarely used questions and settings are opened", async () => {
  const player = await open("/table/1/player", tokens.player);
  await player.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black"));
  assert.equal(await player.evaluate(() => document.querySelector("[autofocus]").id), "move-input");
  // Where the game stands, said once as the page opens: the summary, and
  // the last announcement (the table's words).
  const last = (await (await fetch(base + "/api/tables/1")).json()).last_announcement;
  const said = await player.evaluate(() => [...document.getElementById("answers").children].map((p) => p.textContent));
  const summary = await player.evaluate(() => document.getElementById("summary").textContent);
  assert.deepEqual(said, [last ? `${summary} Last announcement: ${last}` : summary]);
  assert.equal(await focused(player), "move-input");
  const tree = await player.locator("main").ariaSnapshot();
  const controls = tree.split("\n").filter((l) => /^\s*- (textbox|combobox|checkbox|switch|button|link|grid)\b/.test(l));
  assert.match(controls[0], /textbox "Move or command"/, `first control in reading order:\n${tree}`);
  assert.doesNotMatch(tree, /combobox/, `no select box in the tree before "more" is opened:\n${tree}`);
  for (const hidden of MORE_LABELS) {
    assert.ok(!tree.includes(hidden), `"${hidden}" is not read before "more" is opened:\n${tree}`);
  }
  // Opened by keyboard, the questions work as the typed commands do.
  await openMore(player);
  const opened = await player.locator("main").ariaSnapshot();
  for (const shown of MORE_LABELS) assert.ok(opened.includes(shown), shown);
  await player.focus("#line-which");
  await player.selectOption("#line-which", "e");
  await player.focus("#line-form button");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => /e1 .*e8 /.test(document.getElementById("answers").textContent));
  assert.deepEqual(await axe(player), []);
  await player.close();
});

test("the explorable board: walked with arrows and jump keys, a move made on it, the move style kept", async () => {
  const before = await (await fetch(base + "/api/tables/1")).json();
  assert.deepEqual(before.moves, ["e4", "Nf6", "Nf3"]);
  const player = await open("/table/1/player", tokens.player);
  await player.waitForFunction(() => document.getElementById("summary").textContent.includes("You play Black"));
  // The grid: 64 squares, one of them in the tab order (a roving tabindex).
  assert.equal(await player.evaluate(() => document.querySelectorAll('#board [role="gridcell"]').length), 64);
  assert.equal(await player.evaluate(() => document.querySelectorAll('#board [tabindex="0"]').length), 1);
  // The command `b` in the move box goes to the board, at the player's king.
  await player.keyboard.type("b");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.activeElement.getAttribute("role") === "gridcell");
  assert.equal(await focused(player), "e8, black king");
  // Seen from Black's side: down is towards Black's own edge.
  await player.keyboard.press("ArrowDown");
  assert.equal(await focused(player), "e8, black king");
  assert.match(await boardSays(player), /Edge of the board: e8/);
  const walk = [
    ["ArrowUp", "e7, black pawn"],
    ["ArrowRight", "d7, black pawn"],
    ["4", "d4, empty"],
    ["Shift+Digit6", "f4, empty"],
    ["n", "f6, black knight"],
    ["Shift+N", "f3, white knight"],
    ["End", "a3, empty"],
    ["Home", "h3, empty"],
    ["Control+Home", "h1, white rook"],
    ["Control+End", "a8, black rook"],
    ["q", "d1, white queen"],
    ["q", "d8, black queen"],
    ["k", "e1, white king"],
    ["2", "e2, empty"],
    ["ArrowLeft", "f2, white pawn"],
    ["Shift+Digit7", "g2, white pawn"],
    ["3", "g3, empty"],
    ["ArrowLeft", "h3, empty"],
    ["ArrowLeft", "h3, empty"],
  ];
  for (const [key, said] of walk) {
    await player.keyboard.press(key);
    assert.equal(await focused(player), said, `after ${key}`);
  }
  assert.match(await boardSays(player), /Edge of the board: h3/);
  // The focus never left the grid, and one square stays in the tab order.
  assert.equal(await player.evaluate(() => document.querySelectorAll('#board [tabindex="0"]').length), 1);
  // l: the last move, its squares named.
  await player.keyboard.press("l");
  assert.equal(await boardSays(player), "Last move: White Nf3, from g1 to f3.");
  // A move on the board: Enter on the e7 pawn, Enter on e6.
  await player.keyboard.press("7");
  await player.keyboard.press("Shift+Digit5");
  assert.equal(await focused(player), "e7, black pawn");
  await player.keyboard.press("Enter");
  assert.match(await boardSays(player), /e7, black pawn, picked/);
  assert.equal(await focused(player), "e7, black pawn");
  assert.equal(await player.evaluate(() => document.activeElement.getAttribute("aria-selected")), "true");
  await player.keyboard.press("ArrowUp");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.activeElement.textContent.startsWith("e6, black pawn"));
  await player.waitForFunction(() => document.getElementById("log").textContent.includes("Eva sechs"));
  assert.deepEqual((await (await fetch(base + "/api/tables/1")).json()).moves, ["e4", "Nf6", "Nf3", "e6"]);
  // Escape: back to the move box.
  await player.keyboard.press("Escape");
  assert.equal(await focused(player), "move-input");
  // The move style: long, chosen with the keyboard, used by the page's own
  // move lists and kept in this browser.
  await openMore(player);
  await player.focus("#move-style");
  await player.selectOption("#move-style", "long");
  await player.focus("#board-last");
  await player.keyboard.press("Enter");
  assert.equal(await boardSays(player), "Last move: Black e7-e6, from e7 to e6.");
  await player.focus("#move-input");
  await player.keyboard.type("m");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("1. e2-e4 Ng8-f6 2. Ng1-f3 e7-e6"));
  await player.reload();
  await player.waitForFunction(() => !document.getElementById("summary").textContent.startsWith("Loading"));
  assert.equal(await player.evaluate(() => document.getElementById("move-style").value), "long");
  // Every command is a button too: the time used, by keyboard.
  const lines = await player.evaluate(() => document.getElementById("log").children.length);
  await player.focus('button[data-cmd="cu"]');
  await player.keyboard.press("Enter");
  await player.waitForFunction((n) => document.getElementById("log").children.length > n, lines);
  // The pieces form: where are White's knights.
  await openMore(player);
  await player.focus("#pieces-which");
  await player.selectOption("#pieces-which", "N");
  await player.focus("#pieces-form button");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => document.getElementById("answers").textContent.includes("white knight: b1, f3"));
  // The opponent's name is on the page.
  assert.match(await player.evaluate(() => document.getElementById("summary").textContent), /You play Black against Weiss, Wilma \(White\)/);
  await player.close();
});

// The clocks as a page shows them: "1:29:58" → seconds, and the words
// beside each.
const shownClock = (page, side) => page.evaluate((side) => document.querySelector(`#clocks .clock[data-side="${side}"] .clock-time`).textContent, side);
const clockMarks = (page, side) => page.evaluate((side) => document.querySelector(`#clocks .clock[data-side="${side}"] .clock-marks`).textContent, side);
const seconds = (text) => text.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
const tableState = async () => (await fetch(base + "/api/tables/1")).json();

test("clocks tick between events on the assistant, arbiter and opponent pages, corrected on every event", async () => {
  const assistant = await open("/table/1/assistant", tokens.assistant);
  await assistant.waitForFunction(loaded);
  if (!(await tableState()).clock.running) {
    await assistant.focus('button[data-post="clock/start"]');
    await assistant.keyboard.press("Enter");
    for (let i = 0; i < 50 && !(await tableState()).clock.running; i++) await new Promise((r) => setTimeout(r, 100));
  }
  const state = await tableState();
  assert.equal(state.clock.running_side, state.turn);
  assert.equal(state.turn, "white");
  // The opponent's device believes it is an hour later than it is: the page
  // measures the offset to the table's time and is not misled.
  const skewed = await browser.newContext();
  await skewed.addInitScript(() => {
    const real = performance.timeOrigin;
    Object.defineProperty(performance, "timeOrigin", { get: () => real + 3600 * 1000 });
  });
  const opponent = await skewed.newPage();
  await opponent.goto(base + "/table/1/opponent");
  await opponent.waitForFunction(loaded);
  const arbiter = await open("/arbiter/1", tokens.arbiter);
  await arbiter.waitForFunction(loaded);
  // With no event at all, White's clock counts down on every page.
  for (const page of [assistant, arbiter, opponent]) {
    const before = await shownClock(page, "white");
    await page.waitForFunction((b) => document.querySelector('#clocks .clock[data-side="white"] .clock-time').textContent !== b, before, { timeout: 5000 });
    assert.ok(seconds(await shownClock(page, "white")) < seconds(before));
    assert.match(await clockMarks(page, "white"), /▶ to move, running/);
    assert.doesNotMatch(await clockMarks(page, "black"), /to move|running/);
  }
  const server = (await tableState()).clock.white_ms;
  const shown = seconds(await shownClock(opponent, "white")) * 1000;
  assert.ok(Math.abs(shown - server) < 2000, `shown ${shown} ms, the table ${server} ms`);
  // An event (White's move) corrects every page: Black's time runs, White's
  // stands, and the opponent's page shows the announcement, numbered, new.
  assert.equal(await opponent.evaluate(() => document.getElementById("said-new").hidden), true);
  await assistant.focus("#move-input");
  await assistant.keyboard.type("d4");
  await assistant.keyboard.press("Enter");
  await opponent.waitForFunction(() => document.getElementById("said").textContent.includes("David vier"));
  assert.equal(await opponent.evaluate(() => document.getElementById("said-count").textContent), "Announcement 1");
  assert.equal(await opponent.evaluate(() => document.getElementById("said-new").hidden), false);
  assert.equal(await opponent.evaluate(() => document.getElementById("said").lang), "de");
  await opponent.waitForFunction(() => document.querySelector('#clocks .clock[data-side="black"] .clock-marks').textContent.includes("to move"));
  const white = await shownClock(opponent, "white");
  const black = await shownClock(opponent, "black");
  await opponent.waitForFunction((b) => document.querySelector('#clocks .clock[data-side="black"] .clock-time').textContent !== b, black, { timeout: 5000 });
  assert.equal(await shownClock(opponent, "white"), white);
  // A second announcement (the clock, asked on the assistant's page) is a
  // visible change too: its number.
  await assistant.focus('button[data-post="clock/say"]');
  await assistant.keyboard.press("Enter");
  await opponent.waitForFunction(() => document.getElementById("said-count").textContent === "Announcement 2");
  // Low time: a word and a sign, not a colour. The arbiter leaves White
  // half a minute (White is not on move, so it stays).
  const left = (await tableState()).clock.white_ms;
  const r = await fetch(base + "/api/tables/1/clock/adjust", {
    method: "POST",
    headers: { "Authorization": "Bearer " + tokens.arbiter, "Content-Type": "application/json" },
    body: JSON.stringify({ side: "white", seconds: -Math.round(left / 1000 - 30), reason: "test: low time" }),
  });
  assert.equal(r.status, 200);
  await opponent.waitForFunction(() => document.querySelector('#clocks .clock[data-side="white"] .clock-marks').textContent.includes("⚠ low time"));
  assert.match(await clockMarks(assistant, "white"), /⚠ low time/);
  assert.doesNotMatch(await clockMarks(opponent, "black"), /low time/);
  await assistant.close();
  await arbiter.close();
  await skewed.close();
});

test("the opponent's page: large on a phone, linked from the table's pages, motion only if wanted", async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(base + "/table/1/opponent");
  await page.waitForFunction(loaded);
  const layout = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    said: parseFloat(getComputedStyle(document.getElementById("said")).fontSize),
    clock: parseFloat(getComputedStyle(document.querySelector("#clocks .clock")).fontSize),
    body: parseFloat(getComputedStyle(document.body).fontSize),
  }));
  assert.ok(layout.overflow <= 0, `${layout.overflow}px wider than the phone`);
  assert.ok(layout.said >= 32 && layout.clock >= 28 && layout.body >= 18, JSON.stringify(layout));
  assert.deepEqual(await axe(page), []);
  // The flash plays only for readers who have not asked for less motion;
  // the number and the "New" mark change either way.
  // Each flash by another role: the same role asking again while the last
  // words are still being said is answered, not said (nor shown) again.
  const flash = async (role) => {
    await fetch(base + "/api/tables/1/repeat", { method: "POST", headers: { "Authorization": "Bearer " + tokens[role] } });
    await page.waitForFunction(() => document.querySelector(".said-box").classList.contains("fresh"));
    return page.evaluate(() => getComputedStyle(document.querySelector(".said-box")).animationName);
  };
  assert.equal(await flash("assistant"), "tactus-flash");
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.evaluate(() => document.querySelector(".said-box").classList.remove("fresh"));
  assert.equal(await flash("arbiter"), "none");
  assert.equal(await page.evaluate(() => document.getElementById("said-new").hidden), false);
  await phone.close();
  // Every page of the table links to it.
  for (const [path, role] of [["/table/1/player", "player"], ["/table/1/assistant", "assistant"], ["/arbiter/1", "arbiter"], ["/", null]]) {
    const p = await open(path, role ? tokens[role] : null);
    await p.waitForFunction(() => document.querySelector('a[href="/table/1/opponent"]'));
    await p.close();
  }
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
  // Ready means running, with the output held open for the next word.
  const on = () => ({ state: window.tactusSound.ctx.state, open: window.tactusSound.keep !== null });
  assert.deepEqual(await player.evaluate(on), { state: "running", open: true });
  // An announcement (the clock) is played here from its tokens.
  await player.focus("#move-input");
  await player.keyboard.type("c");
  await player.keyboard.press("Enter");
  await player.waitForFunction(() => window.tactusSound.played >= 1);
  // Sound the browser pauses is said, not left silent.
  await player.evaluate(() => window.tactusSound.ctx.suspend());
  await player.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound stopped on this device"));
  await player.focus("#sound-here");
  await player.keyboard.press("Space");
  await player.waitForFunction(() => document.getElementById("sound-status").textContent === "Sound off on this device.");
  // Off lets the device sleep; on again is ready at once, from the same
  // decoded voice.
  await player.waitForFunction(() => window.tactusSound.ctx.state === "suspended");
  assert.equal(await player.evaluate(() => window.tactusSound.keep), null);
  await player.evaluate(() => { window.decodedBefore = window.tactusSound.clips; });
  await player.keyboard.press("Space");
  await player.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound on"));
  assert.deepEqual(await player.evaluate(on), { state: "running", open: true });
  assert.ok(await player.evaluate(() => window.decodedBefore === window.tactusSound.clips), "the voice is not fetched again");
  await player.close();
});

test("the player's page on a phone: touch, a button for every command, large targets, sound or screen reader, the screen kept on", async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(base + "/table/1/player#token=" + tokens.player);
  await page.waitForFunction(() => !document.getElementById("summary").textContent.startsWith("Loading"));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling");
  // Every command of the move box is a button too.
  const cmds = await page.evaluate(() => [...document.querySelectorAll("button[data-cmd]")].map((b) => b.dataset.cmd).sort());
  assert.deepEqual(cmds, ["a", "b", "c", "cl", "cu", "d", "l", "m", "n", "o", "r", "st"]);
  // Large targets: every control at least 44 px high; board squares at
  // least 40 px each way (eight and the rank numbers across 390 px).
  const smallTargets = () => page.evaluate(() => [...document.querySelectorAll("button, input, select, summary")]
    .filter((el) => el.offsetParent && !el.closest(".visually-hidden"))
    .map((el) => [el.id || el.textContent.trim() || el.type, el.getBoundingClientRect()])
    .filter(([, r]) => r.height < 44)
    .map(([n, r]) => `${n}: ${Math.round(r.width)}x${Math.round(r.height)}`)
    .filter((s) => !/^(sound-here|reader-too|wake)/.test(s)));
  assert.deepEqual(await smallTargets(), []);
  // The questions and settings behind "more": opened with a tap, as large.
  await page.tap("#more > summary");
  await page.waitForFunction(() => document.getElementById("more").open && document.getElementById("move-style").offsetParent);
  assert.deepEqual(await smallTargets(), []);
  const checks = await page.evaluate(() => ["sound-here", "reader-too", "wake"].map((id) => {
    const r = document.getElementById(id).closest("p").getBoundingClientRect();
    return r.height;
  }));
  assert.ok(checks.every((h) => h >= 25), `switch rows ${checks}`);
  const square = await page.evaluate(() => { const r = document.querySelector('#board td[data-square="e4"]').getBoundingClientRect(); return [r.width, r.height]; });
  assert.ok(square[0] >= 40 && square[1] >= 40, `a square is ${square}`);
  // A tap on a button runs its command.
  const answered = await page.evaluate(() => document.getElementById("answers").children.length);
  await page.tap('button[data-cmd="m"]');
  await page.waitForFunction((n) => document.getElementById("answers").children.length > n, answered);
  // A tap on the board's squares picks and names them.
  await page.tap('#board td[data-square="e6"]');
  await page.waitForFunction(() => document.getElementById("board-status").textContent.includes("e6"));
  await page.tap('#board td[data-square="e6"]');
  // Sound on this device: the screen reader is not made to read the
  // announcements over it unless the player asks for both.
  assert.equal(await page.evaluate(() => document.getElementById("log").getAttribute("aria-live")), "assertive");
  await page.tap("#sound-here");
  await page.waitForFunction(() => document.getElementById("sound-status").textContent.startsWith("Sound on"), null, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById("log").getAttribute("aria-live") === "off");
  await page.tap("#reader-too");
  await page.waitForFunction(() => document.getElementById("log").getAttribute("aria-live") === "assertive");
  await page.tap("#reader-too");
  await page.tap("#sound-here");
  await page.waitForFunction(() => document.getElementById("log").getAttribute("aria-live") === "assertive");
  // The screen kept on: asked for in this secure context (loopback), and
  // what came of it is shown.
  assert.equal(await page.evaluate(() => window.isSecureContext && "wakeLock" in navigator), true);
  const wake = await page.evaluate(() => document.getElementById("wake-status").textContent);
  assert.match(wake, /^(The screen stays on while this page is shown\.|The screen cannot be kept on: .+)$/);
  assert.deepEqual(await axe(page), []);
  await phone.close();
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
  ["opponent", "/table/1/opponent", null, loaded],
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
    ["opponent", "/table/1/opponent", null, loaded],
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
  // Choose Spanish with the keyboard (under "more" on the player's page):
  // the page comes back in Spanish.
  await openMore(page);
  await page.focus("#page-lang");
  await page.selectOption("#page-lang", "es");
  await page.waitForFunction(() => document.documentElement.lang === "es");
  // (Loaded: `loaded` looks for the English "Loading", so it waits for the
  // Spanish words themselves; it raced under load.)
  await page.waitForFunction(() => /Juega con Negras/.test(document.getElementById("summary").textContent));
  // A new visit without ?lang= keeps the choice.
  await page.goto(base + "/table/1/assistant");
  await page.waitForFunction(() => document.documentElement.lang === "es");
  await context.close();
});

// Types a move into a page's move box and waits for the table to have it.
async function typeMove(page, at, text, count) {
  await page.focus("#move-input");
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  for (let i = 0; i < 100; i++) {
    const s = await (await fetch(at + "/api/tables/1")).json();
    if (s.moves.length >= count) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${text} was not played`);
}

test("with the default venue an English assistant typing Rd1 gets the rook", async () => {
  const s = await startServer();
  try {
    const assistant = await open("/table/1/assistant?lang=en", s.tokens.assistant, s.base);
    await assistant.waitForFunction(loaded);
    // The page leaves the piece letters to the table: `auto` by default.
    assert.equal(await assistant.evaluate(() => document.getElementById("notation").value), "");
    const setup = ["d4", "d5", "Qd3", "Qd6", "Bd2", "Bd7", "Nc3", "Nc6"];
    for (const [i, m] of setup.entries()) await typeMove(assistant, s.base, m, i + 1);
    // Both readings are legal now: a rook (English) or a king (Spanish R,
    // rey) to d1. Without a page's language the table refuses it.
    const bare = await fetch(s.base + "/api/tables/1/move", {
      method: "POST",
      headers: { "Authorization": "Bearer " + s.tokens.assistant, "Content-Type": "application/json" },
      body: JSON.stringify({ move: "Rd1" }),
    });
    assert.equal(bare.status, 422);
    assert.match((await bare.json()).error, /Rd1|Kd1|ambiguous/i);
    const state = await typeMove(assistant, s.base, "Rd1", 9);
    assert.equal(state.moves[8], "Rd1");
    // The rook from a1 on d1, the king still on e1.
    assert.equal(state.fen.split(" ")[0].split("/")[7], "3RKBNR");
    await assistant.close();
  } finally {
    stopServer(s);
  }
});

// The keyboard-only game in Spanish and German: moves typed in the page's
// own piece letters, the clock asked for, the board walked, every page
// still clean for axe-core with a game on it.
for (const [lang, knight, says] of [
  ["es", "Cf6", { you: "Juega con Negras", king: "e8, rey de las negras", pawn: "e7, peón de las negras", moved: "f6, caballo de las negras" }],
  ["de", "Sf6", { you: "Sie spielen Schwarz", king: "e8, König von Schwarz", pawn: "e7, Bauer von Schwarz", moved: "f6, Springer von Schwarz" }],
]) {
  test(`a game by keyboard alone in ${lang}, the board walked, axe-core clean`, async () => {
    const s = await startServer();
    try {
      const player = await open(`/table/1/player?lang=${lang}`, s.tokens.player, s.base);
      const assistant = await open(`/table/1/assistant?lang=${lang}`, s.tokens.assistant, s.base);
      await player.waitForFunction((you) => document.getElementById("summary").textContent.includes(you), says.you);
      await typeMove(assistant, s.base, "e4", 1);
      await player.waitForFunction(() => document.getElementById("log").textContent.includes("Eva vier"));
      assert.equal(await player.evaluate(() => document.activeElement.id), "move-input");
      await typeMove(player, s.base, knight, 2);
      await player.waitForFunction(() => document.getElementById("log").textContent.includes("Springer Felix sechs"));
      await player.keyboard.type("c");
      await player.keyboard.press("Enter");
      await player.waitForFunction(() => /Weiß .* Schwarz/.test(document.getElementById("log").textContent));
      await player.keyboard.type("b");
      await player.keyboard.press("Enter");
      await player.waitForFunction(() => document.activeElement.getAttribute("role") === "gridcell");
      assert.equal(await focused(player), says.king);
      await player.keyboard.press("ArrowUp");
      assert.equal(await focused(player), says.pawn);
      // The previous knight in reading order from e7: the one that moved.
      await player.keyboard.press("Shift+N");
      assert.equal(await focused(player), says.moved);
      for (const page of [player, assistant]) assert.deepEqual(await axe(page), []);
      const opponent = await open(`/table/1/opponent?lang=${lang}`, null, s.base);
      await opponent.waitForFunction(loaded);
      assert.equal(await opponent.evaluate(() => document.documentElement.lang), lang);
      assert.deepEqual(await axe(opponent), []);
      for (const page of [player, assistant, opponent]) await page.close();
    } finally {
      stopServer(s);
    }
  });
}

// What the table sends for the pages to say (an alert, how a game ended) is
// said in the page's language: the table sends a catalogue key with its
// arguments and the ending, not English words (issue 27).
test("the arbiter's alerts and a game's ending in the page's language", async () => {
  const s = await startServer();
  const post = (path, body) => fetch(s.base + "/api/tables/1/" + path, {
    method: "POST",
    headers: { "Authorization": "Bearer " + s.tokens.assistant, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = (page, id) => page.evaluate((id) => document.getElementById(id).textContent, id);
  try {
    assert.equal((await post("move", { move: "e4" })).status, 200);
    assert.equal((await post("draw/offer", { side: "white" })).status, 200);
    for (const [lang, offered] of [["de", "Remis angeboten von Weiß"], ["es", "tablas ofrecidas por Blancas"], ["en", "draw offered by White"]]) {
      const arbiter = await open(`/arbiter/1?lang=${lang}`, s.tokens.arbiter, s.base);
      await arbiter.waitForFunction((offered) => document.getElementById("alerts").textContent.includes(offered), offered);
      if (lang !== "en") assert.doesNotMatch(await text(arbiter, "alerts"), /draw offered/);
      await arbiter.close();
    }
    assert.equal((await post("resign", { side: "black" })).status, 200);
    for (const [lang, ended] of [["de", "1-0, Aufgabe"], ["es", "1-0, abandono"]]) {
      for (const [path, token] of [["/table/1/assistant", s.tokens.assistant], ["/table/1/opponent", null]]) {
        const page = await open(`${path}?lang=${lang}`, token, s.base);
        await page.waitForFunction((ended) => document.getElementById("summary").textContent.includes(ended), ended);
        assert.doesNotMatch(await text(page, "summary"), /resignation/);
        await page.close();
      }
      const arbiter = await open(`/arbiter/1?lang=${lang}`, s.tokens.arbiter, s.base);
      await arbiter.waitForFunction((ended) => document.getElementById("summary").textContent.includes(ended.slice(5)), ended);
      assert.deepEqual(await axe(arbiter), []);
      await arbiter.close();
    }
  } finally {
    stopServer(s);
  }
});
