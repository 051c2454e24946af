// The table cards and the arbiter overview's hall check in Debian's chromium, driven by playwright-core: the
// cards page opened with the venue arbiter's link passes axe-core; a
// screenshot of it is read by a real QR decoder (Debian's zbar-tools,
// zbarimg); every code decodes to the link printed beside it, whose token
// is that table's and role's, and which opens its page with the right role.
// The server listens on every address, so no link may name 127.0.0.1.
//
// Run by scripts/test after `cargo build`; TACTUS_BIN names the binary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, networkInterfaces } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const root = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const bin = process.env.TACTUS_BIN || join(root, "target", "debug", "tactus");

let proc, browser, dir, port, startup = "";

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "0.0.0.0", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// tokens.toml: { venue: {arbiter}, tables: { id: {player, assistant, arbiter} } }
function readTokens(file) {
  const out = { venue: {}, tables: {} };
  let section = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const t = line.match(/^\[tables\."?([^"\]]+)"?\]/);
    if (t) { section = out.tables[t[1]] = {}; continue; }
    if (/^\[venue\]/.test(line)) { section = out.venue; continue; }
    const kv = line.match(/^(\w+)\s*=\s*"([^"]*)"/);
    if (kv && section) section[kv[1]] = kv[2];
  }
  return out;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "tactus-cards-"));
  port = await freePort();
  writeFileSync(join(dir, "venue.toml"),
    '[[table]]\nid = "1"\nblind = "black"\nboard = "none"\n[[table]]\nid = "2"\nblind = "white"\nboard = "peg:' + join(dir, "no-such-tty") + '"\n');
  proc = spawn(bin, ["serve", "--config", join(dir, "venue.toml"), "--listen", `0.0.0.0:${port}`,
    "--data", join(dir, "data"), "--audio", "none", "--voice", join(root, "voices", "de-appendix-d")],
  { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus serve did not start")), 60000);
    // Its output is a pipe, not a terminal: it says where the links are
    // (the data folder's links.txt) and prints no token.
    let said = "";
    proc.stdout.on("data", (chunk) => {
      said += String(chunk);
      if (/^links: /m.test(said)) {
        assert.ok(!said.includes("token="), "a token in the log:\n" + said);
        startup = readFileSync(join(dir, "data", "links.txt"), "utf8");
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (proc) proc.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The machine's non-loopback IPv4 addresses: what links must use.
function lanAddresses() {
  return Object.values(networkInterfaces()).flat()
    .filter((a) => a && a.family === "IPv4" && !a.internal).map((a) => a.address);
}

const titles = {
  player: (id) => `Player, table ${id}`,
  opponent: (id) => `Table ${id}: announcements and clocks`,
  assistant: (id) => `Assistant, table ${id}`,
  arbiter: () => "Arbiter",
};

test("every card's QR code opens its person's page, and the page passes axe-core", async () => {
  const tokens = readTokens(join(dir, "data", "tokens.toml"));
  const lan = lanAddresses();
  const host = lan.length ? lan[0] : "127.0.0.1";
  if (lan.length) assert.ok(!startup.includes("127.0.0.1"), "start-up links name 127.0.0.1:\n" + startup);
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  // The venue arbiter's token over plain HTTP works only on the server's
  // own screen (127.0.0.1); the cards' links name the hall's address.
  const refused = await fetch(`http://${host}:${port}/api/cards`, { headers: { Authorization: "Bearer " + tokens.venue.arbiter } });
  if (lan.length) assert.equal(refused.status, 403, "the venue token over plain HTTP from the hall");
  await page.goto(`http://127.0.0.1:${port}/arbiter/cards#token=${tokens.venue.arbiter}`);
  await page.waitForFunction(() => document.querySelectorAll("#cards .card").length === 8);
  // The venue's language: its voice pack is German.
  assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
  assert.match(await page.textContent("#cards"), /Tisch 1/);
  const violations = await (async () => {
    await page.evaluate(axeSource);
    const r = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
  })();
  assert.deepEqual(violations, []);
  const shown = await page.$$eval("#cards .card", (cards) => cards.map((c) => ({
    table: c.dataset.table, role: c.dataset.role, link: c.querySelector(".link").textContent })));
  for (const c of shown) {
    if (lan.length) assert.ok(!c.link.includes("127.0.0.1"), c.link);
    assert.ok(c.link.startsWith(`http://${host}:${port}/`), c.link);
  }
  // A real decoder reads the codes off a screenshot of the page.
  const png = join(dir, "cards.png");
  await page.screenshot({ path: png, fullPage: true });
  const decoded = execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png], { encoding: "utf8" })
    .split("\n").filter(Boolean).sort();
  assert.deepEqual(decoded, shown.map((c) => c.link).sort(), "every code decodes to its printed link");
  // Each link is short and case-free (a braille reader types it as the
  // card spells it), leads to its own person's token and opens that
  // person's page.
  for (const c of shown) {
    const path = new URL(c.link).pathname;
    if (c.role === "opponent") assert.match(path, /^\/o\/[^/]+$/, c.link);
    else assert.match(path, /^\/t\/[0-9a-z]{4}(-[0-9a-z]{4}){3}$/, c.link);
    const typed = await fetch(`http://127.0.0.1:${port}${path.toUpperCase()}`, { redirect: "manual" });
    assert.equal(typed.status, 303, `${c.link} typed in capitals`);
    const to = new URL(typed.headers.get("location"), c.link);
    const token = (to.hash.match(/token=([0-9a-f]+)/) || [])[1];
    if (c.role === "opponent") assert.equal(token, undefined, "the sighted opponent's page needs no token");
    else assert.equal(token, tokens.tables[c.table][c.role], `${c.table} ${c.role}`);
    const p = await browser.newPage();
    await p.goto(c.link);
    assert.equal((await p.title()).split(" · ")[0], titles[c.role](c.table), c.link);
    await p.close();
  }
  await page.close();
});

test("the cards need the venue arbiter's token", async () => {
  const tokens = readTokens(join(dir, "data", "tokens.toml"));
  const none = await fetch(`http://127.0.0.1:${port}/api/cards`);
  assert.equal(none.status, 401);
  const table = await fetch(`http://127.0.0.1:${port}/api/cards`, { headers: { Authorization: "Bearer " + tokens.tables["1"].arbiter } });
  assert.equal(table.status, 403);
  const brf = await fetch(`http://127.0.0.1:${port}/api/tables/1/card.brf`, { headers: { Authorization: "Bearer " + tokens.tables["1"].arbiter } });
  assert.equal(brf.status, 200);
  const text = await brf.text();
  // German braille: "Tisch" and the number sign; the link in computer braille.
  assert.match(text, /^TISCH #A\r\n/);
  // The link as the card spells it: short, and it works typed as read.
  const spelled = text.replace(/\r\n/g, "").match(/HTTP:\/\/[^/]+(\/T\/[0-9A-Z]{4}(-[0-9A-Z]{4}){3})/);
  assert.ok(spelled, text);
  const typed = await fetch(`http://127.0.0.1:${port}${spelled[1]}`, { redirect: "manual" });
  assert.equal(typed.status, 303);
  assert.ok(typed.headers.get("location").endsWith(`/table/1/player#token=${tokens.tables["1"].player}`), typed.headers.get("location"));
  const lower = await fetch(`http://127.0.0.1:${port}${spelled[1].toLowerCase()}`, { redirect: "manual" });
  assert.equal(lower.status, 303);
  assert.ok(text.split("\r\n").every((l) => l.length <= 40));
  const wrong = await fetch(`http://127.0.0.1:${port}/api/tables/1/card.brf`, { headers: { Authorization: "Bearer " + tokens.tables["2"].arbiter } });
  assert.equal(wrong.status, 403);
});

test("the arbiter overview checks every table and one table again, by keyboard, with axe-core passing", async () => {
  const tokens = readTokens(join(dir, "data", "tokens.toml"));
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/arbiter#token=${tokens.venue.arbiter}`);
  await page.focus("#hall-check-run");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#hall-check-rows tr").length > 0);
  const rows = await page.$$eval("#hall-check-rows tr", (trs) => trs.map((r) => ({
    table: r.dataset.table, part: r.dataset.part, ok: r.dataset.ok === "1", text: r.cells[2].textContent })));
  const row = (table, part) => rows.find((r) => r.table === table && r.part === part);
  // Table 1: no board, text only: ready. Table 2: its board's port is not there.
  assert.ok(row("1", "board").ok, JSON.stringify(rows));
  assert.ok(row("1", "sound").ok);
  assert.ok(!row("2", "board").ok);
  assert.match(row("2", "board").text, /NICHT BEREIT|NOT READY/);
  assert.match(row("2", "board").text, /not connected/);
  assert.match(await page.textContent("#hall-check-status"), /1/);
  assert.deepEqual(await (async () => {
    await page.evaluate(axeSource);
    const r = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
    return r.violations.map((v) => `${v.id}: ${v.help}`);
  })(), []);
  // Table 2 again, from its own button: its rows are replaced, the focus
  // stays on its button, the status says so.
  const again = page.locator("#hall-check-rows tr[data-table='2'] button");
  await again.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /2/.test(document.getElementById("hall-check-status").textContent)
    && document.activeElement.tagName === "BUTTON" && document.activeElement.closest("tr").dataset.table === "2");
  assert.equal(await page.$$eval("#hall-check-rows tr[data-table='2']", (r) => r.length), 2);
  // Without the venue arbiter's token the whole check is refused; a table's
  // arbiter may check that table only.
  assert.equal((await fetch(`http://127.0.0.1:${port}/api/check`)).status, 401);
  const t1 = { headers: { Authorization: "Bearer " + tokens.tables["1"].arbiter } };
  assert.equal((await fetch(`http://127.0.0.1:${port}/api/check`, t1)).status, 403);
  assert.equal((await fetch(`http://127.0.0.1:${port}/api/tables/1/check`, t1)).status, 200);
  assert.equal((await fetch(`http://127.0.0.1:${port}/api/tables/2/check`, t1)).status, 403);
  await page.close();
});
