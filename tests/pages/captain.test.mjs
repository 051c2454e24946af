// A team captain's page (issue 42) in Debian's chromium, by keyboard
// alone: the link typed as a braille card reads it (capitals), the
// line-up set with Tab, Space and Enter (a player resting, the ones below
// moving up), the round's match followed live: a board's result and the
// score appear without a reload and are said once in the page's status
// line. axe-core on every state; screenshots at a phone's and a desktop's
// width go to target/screenshots/.
//
// Run with TACTUS_BIN naming the binary (scripts/test does).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { axe, launch } from "./chromium.mjs";
import { api, foolsMate, roundOne, startTeamServer } from "./team_event.mjs";

const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");
const shots = join(root, "target", "screenshots");
mkdirSync(shots, { recursive: true });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let browser;
/** @type {Array<() => void>} */
const cleanups = [];

before(async () => {
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  for (const c of cleanups) c();
});

async function screenshots(page, name) {
  for (const [size, viewport] of [["phone", PHONE], ["desktop", DESKTOP]]) {
    await page.setViewportSize(viewport);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(over <= 0, `${name} at ${size}: ${over} px wider than the screen`);
    await page.screenshot({ path: join(shots, `${name}-${size}.png`), fullPage: true });
  }
}

/** Presses Tab until the focused element matches `check`; how many presses. */
async function tabTo(page, what, check) {
  for (let n = 1; n <= 30; n++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(check)) return n;
  }
  throw new Error(`Tab never reached ${what}`);
}

test("a captain sets the line-up by keyboard and follows the match live, the changes said in the status line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tactus-captain-"));
  const s = await startTeamServer(bin, root, dir);
  cleanups.push(() => { s.proc.kill("SIGKILL"); rmSync(dir, { recursive: true, force: true }); });
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // The link as a braille reader types it from the card: capitals.
  const code = s.captains["1"];
  await page.goto(`${s.base}/c/${code.toUpperCase()}`);
  assert.equal(await page.locator("h1").textContent(), "Team 1 Team 1");
  assert.deepEqual(await axe(page), [], "the captain's page before any round");
  await screenshots(page, "captain-before");

  // The default line-up: the first two players ticked, the reserve not.
  const ticked = () => page.evaluate(() => [...document.querySelectorAll("input[name=play]")].map((b) => b.checked));
  assert.deepEqual(await ticked(), [true, true, false]);
  // Keyboard only: board 1's player rests, the reserve plays.
  await tabTo(page, "the first check box", () => document.activeElement?.getAttribute("value") === "1");
  await page.keyboard.press("Space");
  await tabTo(page, "the reserve's check box", () => document.activeElement?.getAttribute("value") === "3");
  await page.keyboard.press("Space");
  await tabTo(page, "the submit button", () => document.activeElement?.tagName === "BUTTON");
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
  assert.deepEqual(await ticked(), [false, true, true], "the page after the form: the line-up as set");
  const lineups = await api(s, "GET", "/api/lineups?round=1", s.venue);
  assert.deepEqual(lineups.teams.find((t) => t.number === 1).boards, [2, 3], JSON.stringify(lineups));

  // Round 1 as the pairing program exports it: team 1 against team 2
  // (team 1's line-up as its captain set it, a `300` record), 3 against
  // 4; board 1 White for the first-named team (`352 WB`).
  await api(s, "POST", "/api/rounds?round=1", s.venue, roundOne([[1, [2, 3], 2, [4, 5]], [3, [7, 8], 4, [10, 11]]]), "text/plain");
  await api(s, "POST", "/api/rounds/1/start", s.venue);
  // Player 2 (now board 1 of team 1) and the reserve (board 2) have games.
  const me2 = await api(s, "GET", "/api/players/me", s.players["2"]);
  const me3 = await api(s, "GET", "/api/players/me", s.players["3"]);
  assert.equal(me2.match.board, 1, JSON.stringify(me2));
  assert.equal(me3.match.board, 2, JSON.stringify(me3));
  // The page as it is, the round under way; then its board 1 finishes.
  await page.reload();
  await page.waitForFunction(() => (document.querySelector("#match li")?.textContent || "").includes("playing"));
  assert.deepEqual(await axe(page), [], "the captain's page during the round");
  const focusBefore = await page.evaluate(() => document.activeElement?.tagName);
  // Board 1: the fool's mate, each side by its own player's token.
  const white = me2.colour === "white" ? s.players["2"] : s.players[String(me2.opponent.start_rank)];
  const black = me2.colour === "white" ? s.players[String(me2.opponent.start_rank)] : s.players["2"];
  await foolsMate(s, me2.table, white, black);
  // Within the page's look (10 s): the board's result and the score, in
  // place and in the status line; the focus where the captain left it.
  await page.waitForFunction(() => (document.getElementById("match-news")?.textContent || "").includes("0-1"), null, { timeout: 30000 });
  const news = await page.locator("#match-news").textContent();
  assert.match(news, /Board 1: Player 1\.2 \(white\) against Player 2\.1/, news);
  assert.match(news, /Score/, news);
  assert.equal(await page.locator("#match-news").getAttribute("role"), "status");
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), focusBefore);
  assert.match(await page.locator("#match li").first().textContent(), /0-1|1-0/);
  assert.deepEqual(await axe(page), [], "the captain's page after a result");
  await screenshots(page, "captain-live");
  await context.close();
});
