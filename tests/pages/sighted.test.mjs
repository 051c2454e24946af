// The sighted side of the table (issue 46), in Debian's chromium: the
// board of the assistant's, arbiter's, opponent's and venue overview's
// pages (src/service/pages/sighted-board.js), driven by pointer and by
// keyboard. A whole game clicked on the assistant's board, a promotion
// and a castling in it, every move arriving in the blind player's live
// region; refused clicks said; the arbiter's boards marking exactly the
// squares a simulated tactile board differs at; the printed scoresheet
// and results sheet; axe-core on every new page state. Screenshots at a
// phone's and a desktop's width go to target/screenshots/.
//
// Run with TACTUS_BIN naming the binary (scripts/test does).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");
const shots = join(root, "target", "screenshots");
mkdirSync(shots, { recursive: true });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

let browser;
/** @type {Array<() => void>} */
const cleanups = [];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// A `tactus serve` of `venue` on a free port with its own data folder:
// { base, tokens (table 1's), venue (the venue arbiter's token) }.
async function startServer(venue) {
  const dir = mkdtempSync(join(tmpdir(), "tactus-sighted-"));
  const port = await freePort();
  writeFileSync(join(dir, "venue.toml"), venue);
  const proc = spawn(bin, ["serve", "--config", join(dir, "venue.toml"), "--listen", `127.0.0.1:${port}`, "--data", join(dir, "data"),
    "--audio", "none", "--voice", join(root, "voices", "de-appendix-d")], { stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(() => { proc.kill("SIGKILL"); rmSync(dir, { recursive: true, force: true }); });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus serve did not start")), 60000);
    proc.stdout.on("data", (chunk) => { if (String(chunk).includes("tactus is serving")) { clearTimeout(timer); resolve(); } });
    proc.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  const text = readFileSync(join(dir, "data", "tokens.toml"), "utf8");
  /** @type {Record<string, string>} */
  const tokens = {};
  const one = text.split(/^\[tables\."?1"?\]/m)[1].split(/^\[/m)[0];
  for (const m of one.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)) tokens[m[1]] = m[2];
  return { base: `http://127.0.0.1:${port}`, tokens, venue: text.match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1] };
}

// The simulated peg board (`tactus board sim`), commands on its standard
// input: { path, send(line) }.
async function startSim() {
  const proc = spawn(bin, ["board", "sim", "--protocol", "peg"], { stdio: ["pipe", "pipe", "inherit"] });
  cleanups.push(() => proc.kill("SIGKILL"));
  const path = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus board sim did not start")), 30000);
    let out = "";
    proc.stdout.on("data", (chunk) => {
      out += String(chunk);
      if (out.includes("\n")) { clearTimeout(timer); resolve(out.split("\n")[0].trim()); }
    });
  });
  return { path, send: (line) => proc.stdin.write(line + "\n") };
}

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (browser) await browser.close();
  for (const c of cleanups) c();
});

async function axe(page) {
  // CSP forbids inline scripts; axe is evaluated through the DevTools protocol.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
}

async function open(context, url, token) {
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(url + (token ? "#token=" + token : ""));
  return page;
}

/** Full-page screenshots of `page` as it is, at a phone's and a desktop's width. */
async function screenshots(page, name) {
  for (const [size, viewport] of [["phone", PHONE.viewport], ["desktop", DESKTOP.viewport]]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(100);
    // Nothing wider than a phone's screen.
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const wide = over <= 0 ? "" : await page.evaluate(() => [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth && !e.closest(".wide")).map((e) => e.tagName + "#" + e.id + "." + e.getAttribute("class")).join(", "));
    assert.ok(over <= 0, `${name} at ${size}: ${over} px wider than the screen (${wide})`);
    await page.screenshot({ path: join(shots, `${name}-${size}.png`), fullPage: true });
  }
}

const loaded = () => !(document.getElementById("summary") || { textContent: "" }).textContent.startsWith("Loading");
const cell = (sq) => `#sighted-board [data-square="${sq}"]`;

// A game with a promotion (5. bxa8=Q), a castling (8. O-O) and a mate.
const GAME = ["e2e4", "d7d5", "e4d5", "c7c6", "d5c6", "a7a6", "c6b7", "b8d7", "b7a8q", "e7e5", "f1c4", "h7h6",
  "g1h3", "a6a5", "e1g1", "a5a4", "d1h5", "a4a3", "h5f7"];

test("the assistant plays a whole game by clicking, a promotion and a castling in it; every move reaches the blind player's live region", async () => {
  const s = await startServer('[[table]]\nid = "1"\nblind = "black"\nboard = "none"\nwhite = "Weiss, Wilma"\nblack = "Schwarz, Sam"\n');
  const context = await browser.newContext(DESKTOP);
  const player = await open(context, s.base + "/table/1/player", s.tokens.player);
  const assistant = await open(context, s.base + "/table/1/assistant", s.tokens.assistant);
  await assistant.waitForFunction(loaded);
  await player.waitForFunction(loaded);
  // Seen from the sighted player's side (White): a1 at the bottom left.
  const corner = await assistant.evaluate(() => {
    const cells = [...document.querySelectorAll("#sighted-board [data-square]")];
    return [cells[0].dataset.square, cells[63].dataset.square];
  });
  assert.deepEqual(corner, ["a8", "h1"]);
  assert.equal(await assistant.getAttribute(cell("g1"), "aria-label"), "g1, white knight");
  assert.deepEqual(await axe(assistant), []);
  const state = async () => (await fetch(s.base + "/api/tables/1")).json();
  const heard = () => player.evaluate(() => document.getElementById("log").children.length);
  for (const [i, uci] of GAME.entries()) {
    const before = await heard();
    const from = uci.slice(0, 2), to = uci.slice(2, 4);
    await assistant.click(cell(from));
    // Picked: the piece's legal squares are shown and said.
    await assistant.waitForFunction((sq) => document.querySelector(`#sighted-board [data-square="${sq}"]`).getAttribute("aria-label").includes("can move here"), to);
    assert.match(await assistant.evaluate(() => document.getElementById("board-status").lastElementChild.textContent), new RegExp(`^${from}, .* picked: it can go to .*${to}`));
    if (i === 0) await screenshots(assistant, "assistant-picked");
    await assistant.click(cell(to));
    if (uci.length === 5) {
      // The promotion's piece, in a dialog.
      await assistant.waitForSelector("dialog.sboard-promotion[open]");
      assert.deepEqual(await axe(assistant), []);
      await screenshots(assistant, "assistant-promotion");
      await assistant.click(`dialog.sboard-promotion button[data-piece="${uci[4]}"]`);
    }
    const s2 = await (async () => {
      for (let k = 0; k < 100; k++) {
        const st = await state();
        if (st.moves.length === i + 1) return st;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`move ${i + 1} (${uci}) was not made`);
    })();
    assert.equal(s2.moves_uci[i], uci);
    // The move reaches the blind player's live region: its announcement.
    await player.waitForFunction(([n, text]) => {
      const log = document.getElementById("log");
      return log.children.length > n && log.lastElementChild.textContent.includes(text);
    }, [before, s2.last_announcement]);
    // The board shows it: the last move's squares named and written.
    await assistant.waitForFunction((sq) => /last move to here/.test(document.querySelector(`#sighted-board [data-square="${sq}"]`).getAttribute("aria-label")), to);
  }
  const end = await state();
  assert.deepEqual(end.moves.slice(8, 9), ["bxa8=Q"]);
  assert.equal(end.moves[14], "O-O");
  assert.equal(end.result.ending, "checkmate");
  assert.deepEqual(end.legal_moves, []);
  assert.equal(await assistant.getAttribute(cell("a8"), "aria-label"), "a8, white queen");
  assert.equal(await assistant.getAttribute(cell("g1"), "aria-label"), "g1, white king");
  assert.match(await assistant.getAttribute(cell("e8"), "aria-label"), /^e8, black king, check$/);
  assert.match(await assistant.evaluate(() => document.querySelector("#sighted-board .sboard-text").textContent), /Last move: Qxf7# \(h5–f7\)\. Black is in check\./);
  assert.match(await player.evaluate(() => document.getElementById("log").textContent), /Kurze Rochade/);
  assert.deepEqual(await axe(assistant), []);
  await screenshots(assistant, "assistant-mate");
  // The opponent's page shows the same board, from the sighted side, live.
  const opponent = await open(context, s.base + "/table/1/opponent");
  await opponent.waitForFunction(() => document.querySelector('#sighted-board [data-square="f7"]')?.getAttribute("aria-label") === "f7, white queen, last move to here");
  assert.deepEqual(await axe(opponent), []);
  await screenshots(opponent, "opponent");
  // Turned to the other side by its button: h1 at the top left.
  await opponent.click(".sboard-turn");
  assert.equal(await opponent.evaluate(() => document.querySelector("#sighted-board [data-square]").dataset.square), "h1");
  await context.close();
});

test("refused clicks and keys are said; a move by keyboard alone; the move box stays", async () => {
  const s = await startServer('[[table]]\nid = "1"\nblind = "white"\nboard = "none"\n');
  const context = await browser.newContext(PHONE);
  const assistant = await open(context, s.base + "/table/1/assistant", s.tokens.assistant);
  await assistant.waitForFunction(loaded);
  // The blind player has White: the board is seen from Black's side.
  assert.equal(await assistant.evaluate(() => document.querySelector("#sighted-board [data-square]").dataset.square), "h1");
  const said = () => assistant.evaluate(() => document.getElementById("board-status").lastElementChild?.textContent || "");
  // An empty square, then a piece of the side not to move: said, nothing sent.
  await assistant.tap(cell("e5"));
  await assistant.waitForFunction(() => document.getElementById("board-status").textContent.includes("e5 is empty: pick a piece of White."));
  await assistant.tap(cell("g8"));
  await assistant.waitForFunction(() => /g8, black knight: White is to move\./.test(document.getElementById("board-status").textContent));
  // A piece that cannot move.
  await assistant.tap(cell("a1"));
  assert.equal(await said(), "a1, white rook: it has no legal move.");
  // A picked knight tapped onto a square it cannot reach: a slip of the
  // finger, said, nothing sent (no illegal move attempt on the record),
  // the knight still picked.
  await assistant.tap(cell("g1"));
  await assistant.waitForFunction(() => /g1, white knight, picked: it can go to f3, h3/.test(document.getElementById("board-status").textContent));
  await assistant.tap(cell("g4"));
  assert.equal(await said(), "g4: the white knight on g1 cannot go there; it can go to f3, h3. Nothing sent (an illegal move attempt goes in the move box).");
  assert.equal(await assistant.evaluate(() => document.getElementById("board-status").getAttribute("role")), "status");
  assert.match(await assistant.getAttribute(cell("g1"), "aria-label"), /picked/);
  const after = await (await fetch(s.base + "/api/tables/1")).json();
  assert.deepEqual([after.moves, after.illegal_count], [[], 0]);
  await assistant.tap(cell("g1"));
  assert.equal(await said(), "Nothing picked.");
  // A move the table refuses (the page's legal moves were out of date):
  // the table's words are said. The answer is held back here to stand in
  // for a table that changed meanwhile.
  await assistant.route("**/api/tables/1/move", (route) => route.fulfill({
    status: 422, contentType: "application/json", body: JSON.stringify({ error: "the game has changed meanwhile" }),
  }));
  await assistant.tap(cell("g1"));
  await assistant.tap(cell("f3"));
  await assistant.waitForFunction(() => document.getElementById("board-status").lastElementChild.textContent === "Refused: the game has changed meanwhile");
  await assistant.unroute("**/api/tables/1/move");
  assert.deepEqual(await axe(assistant), []);
  await screenshots(assistant, "assistant-refused");
  // The keyboard: one square in the tab order, arrows move, Enter picks
  // and drops; Escape lets go.
  await assistant.focus(cell("e2"));
  assert.equal(await assistant.evaluate(() => document.querySelectorAll('#sighted-board [tabindex="0"]').length), 1);
  await assistant.keyboard.press("Enter");
  await assistant.waitForFunction(() => /e2, white pawn, picked/.test(document.getElementById("board-status").textContent));
  await assistant.keyboard.press("Escape");
  assert.equal(await said(), "Nothing picked.");
  await assistant.keyboard.press("Space");
  // Seen from Black: "up" on the screen is towards rank 1.
  await assistant.keyboard.press("ArrowDown");
  await assistant.keyboard.press("ArrowDown");
  assert.equal(await assistant.evaluate(() => document.activeElement.dataset.square), "e4");
  await assistant.keyboard.press("Enter");
  for (let k = 0; k < 100 && (await (await fetch(s.base + "/api/tables/1")).json()).moves.length < 1; k++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual((await (await fetch(s.base + "/api/tables/1")).json()).moves, ["e4"]);
  await assistant.waitForFunction(() => document.activeElement?.getAttribute("aria-label")?.startsWith("e4, white pawn, last move to here"));
  // The move box still works beside the board.
  await assistant.focus("#move-input");
  await assistant.keyboard.type("e5");
  await assistant.keyboard.press("Enter");
  await assistant.waitForFunction(() => document.querySelector('#sighted-board [data-square="e5"]').getAttribute("aria-label").startsWith("e5, black pawn"));
  await context.close();
});

test("the arbiter's boards mark exactly the squares a simulated tactile board differs at; the venue overview marks that table", async () => {
  const sim = await startSim();
  const s = await startServer(`[[table]]\nid = "1"\nblind = "black"\nboard = "peg:${sim.path}"\nwhite = "Weiss, Wilma"\nblack = "Schwarz, Sam"\n\n[[table]]\nid = "2"\nboard = "none"\n`);
  const context = await browser.newContext(DESKTOP);
  const arbiter = await open(context, s.base + "/arbiter/1", s.tokens.arbiter);
  await arbiter.waitForFunction(loaded);
  // The table's own page: its table first, no venue section.
  assert.deepEqual(await arbiter.evaluate(() => ["overview", "rounds", "hall-check"].map((id) => document.getElementById(id).hidden)), [true, true, true]);
  assert.equal(await arbiter.evaluate(() => document.querySelector("main h2").id), "detail-h");
  // The blind player's board: a pawn lifted off c7 and the knight from g8
  // put on f6.
  for (const line of ["lift c7", "lift g8", "put f6"]) sim.send(line);
  const expected = ["c7", "f6", "g8"];
  let differs = [];
  for (let k = 0; k < 200; k++) {
    const st = await (await fetch(s.base + "/api/tables/1")).json();
    differs = st.board.differs;
    if (differs.length === 3) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual([...differs].sort(), expected);
  const marked = (board) => arbiter.evaluate((b) =>
    [...document.querySelectorAll(`#${b} [data-square]`)].filter((g) => g.querySelector(".sq-differs") && g.querySelector(".sq-badge .sq-badge-sign, .sq-badge-sign"))
      .map((g) => g.dataset.square).sort(), board);
  await arbiter.waitForFunction(() => document.querySelectorAll("#blind-board .sq-differs").length === 3);
  // Exactly those squares, on both boards: an outline and a symbol each,
  // and in words.
  assert.deepEqual(await marked("blind-board"), expected);
  assert.deepEqual(await marked("game-board"), expected);
  const labels = await arbiter.evaluate(() => [...document.querySelectorAll("#blind-board [data-square]")]
    .filter((g) => g.getAttribute("aria-label").endsWith("differs")).map((g) => g.dataset.square).sort());
  assert.deepEqual(labels, expected);
  assert.match(await arbiter.evaluate(() => document.querySelector("#blind-board .sboard-text").textContent), /Differs at f6, c7, g8/);
  // The tactile board as the peg board senses it: c7 and g8 empty, a peg
  // on f6 (which piece, a peg board cannot tell); the game as it is.
  const label = (board, sq) => arbiter.getAttribute(`#${board} [data-square="${sq}"]`, "aria-label");
  assert.equal(await label("blind-board", "c7"), "c7, empty, differs");
  assert.equal(await label("blind-board", "g8"), "g8, empty, differs");
  assert.equal(await label("blind-board", "f6"), "f6, a peg (the board does not tell which piece), differs");
  assert.equal(await label("blind-board", "e8"), "e8, black king");
  assert.equal(await label("game-board", "g8"), "g8, black knight, differs");
  assert.equal(await label("game-board", "f6"), "f6, empty, differs");
  assert.match(await arbiter.evaluate(() => document.querySelector("#blind-board .sboard-position").textContent), /Black: Ke8, Qd8, Ra8, Rh8, Bc8, Bf8, Nb8, a7, b7, d7, e7, f7, g7, h7\. Pegs, piece not known: f6\.$/);
  assert.deepEqual(await axe(arbiter), []);
  await screenshots(arbiter, "arbiter-differs");
  // The D.2.9 ruling's position beside the boards (both sheets agree on
  // no moves: the position is the start).
  await arbiter.click('#ruling-form button[name="check"]');
  await arbiter.waitForFunction(() => !document.getElementById("proposed").hidden);
  assert.equal(await arbiter.getAttribute('#proposed-board [data-square="e1"]', "aria-label"), "e1, white king");
  assert.deepEqual(await axe(arbiter), []);
  await screenshots(arbiter, "arbiter-ruling");
  // Turned, the three diagrams turn together.
  await arbiter.click("#blind-board .sboard-turn");
  assert.deepEqual(await arbiter.evaluate(() => ["game-board", "blind-board", "proposed-board"]
    .map((b) => document.querySelector(`#${b} [data-square]`).dataset.square)), ["h1", "h1", "h1"]);
  // The venue overview: a small board per table, the differing one marked.
  const venue = await open(context, s.base + "/arbiter", s.venue);
  await venue.waitForFunction(() => document.querySelectorAll(".table-card").length === 2);
  await venue.waitForFunction(() => document.querySelectorAll('.table-card[data-table="1"] .sq-differs').length === 3);
  assert.equal(await venue.evaluate(() => document.querySelectorAll('.table-card[data-table="2"] .sq-differs').length), 0);
  assert.deepEqual(await venue.evaluate(() => ["overview", "rounds"].map((id) => document.getElementById(id).hidden)), [false, false]);
  assert.match(await venue.evaluate(() => document.querySelector('.table-card[data-table="1"]').textContent), /Alert: tactile board differs at f6, c7, g8/);
  assert.match(await venue.evaluate(() => document.querySelector('.table-card[data-table="1"]').className), /alerting/);
  assert.deepEqual(await axe(venue), []);
  await screenshots(venue, "venue-overview");
  // Without a round set up, the results sheet lists the games as they are.
  await venue.waitForFunction(() => document.querySelector("#results-body table"));
  assert.match(await venue.evaluate(() => document.getElementById("results-body").textContent),
    /^The games at the tables now.*1Weiss, WilmaSchwarz, Samnot begun/);
  // Put right, the marks go.
  for (const line of ["lift f6", "put g8", "put c7"]) sim.send(line);
  await arbiter.waitForFunction(() => document.querySelectorAll("#blind-board .sq-differs").length === 0, null, { timeout: 15000 });
  await context.close();
});

test("printing: a table's scoresheet with its final diagram, a round's results sheet (A4)", async () => {
  const s = await startServer('[[table]]\nid = "1"\nblind = "black"\nboard = "none"\n\n[[player]]\nname = "Bea"\nstart_rank = 1\ntable = "1"\n');
  const r = await fetch(s.base + "/api/rounds", {
    method: "POST",
    headers: { "Authorization": "Bearer " + s.venue, "Content-Type": "application/json" },
    body: JSON.stringify({ round: "3", games: [{ table: "1", white: "Carla", black: "Bea" }] }),
  });
  assert.equal(r.status, 200, await r.text());
  // The arbiter starts the round: no move is made before.
  const started = await fetch(s.base + "/api/rounds/3/start", { method: "POST", headers: { "Authorization": "Bearer " + s.venue } });
  assert.equal(started.status, 200, await started.text());
  for (const uci of ["f2f3", "e7e5", "g2g4", "d8h4"]) {
    const m = await fetch(s.base + "/api/tables/1/move", {
      method: "POST", headers: { "Authorization": "Bearer " + s.tokens.assistant, "Content-Type": "application/json" },
      body: JSON.stringify({ move: uci }),
    });
    assert.equal(m.status, 200, await m.text());
  }
  const context = await browser.newContext(DESKTOP);
  const arbiter = await open(context, s.base + "/arbiter/1", s.tokens.arbiter);
  await arbiter.waitForFunction(() => document.getElementById("sheet-result").textContent.includes("0-1"));
  await arbiter.emulateMedia({ media: "print" });
  const visible = (page) => page.evaluate(() => [...document.querySelectorAll("main > *")].filter((e) => getComputedStyle(e).display !== "none").map((e) => e.id));
  assert.deepEqual(await visible(arbiter), ["scoresheet"]);
  const sheet = await arbiter.evaluate(() => document.getElementById("scoresheet").innerText);
  assert.match(sheet, /Table 1, round 3: Carla – Bea/);
  assert.match(sheet, /1\s+f3\s+e5\s+2\s+g4\s+Qh4#/);
  assert.match(sheet, /Result: 0-1/);
  assert.equal(await arbiter.getAttribute('#sheet-board [data-square="h4"]', "aria-label"), "h4, black queen, last move to here");
  writeFileSync(join(shots, "scoresheet.pdf"), await arbiter.pdf({ format: "A4" }));
  await arbiter.screenshot({ path: join(shots, "scoresheet-print.png"), fullPage: true });
  const venue = await open(context, s.base + "/arbiter", s.venue);
  await venue.waitForFunction(() => document.querySelector("#results-body table"));
  await venue.emulateMedia({ media: "print" });
  assert.deepEqual(await visible(venue), ["results-sheet"]);
  const results = await venue.evaluate(() => document.getElementById("results-sheet").innerText);
  assert.match(results, /Round 3/);
  assert.match(results, /1\s+1\s+Carla\s+Bea\s+0-1/);
  writeFileSync(join(shots, "results.pdf"), await venue.pdf({ format: "A4" }));
  await venue.screenshot({ path: join(shots, "results-print.png"), fullPage: true });
  await venue.emulateMedia({ media: "screen" });
  assert.ok(await venue.evaluate(() => document.querySelector('button[data-print-round="3"]')));
  await context.close();
});
