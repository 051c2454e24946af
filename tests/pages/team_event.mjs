// A small team event for the page tests and the screen reader test
// (issue 42): four teams of three (two boards and a reserve), the venue
// made from the organiser's TRF-26 export by `tactus venue from-trf`, and
// round 1 as a pairing program exports it.
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:net";

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// The organiser's TRF-26 export: four teams of three (two boards and a
// reserve), as `tactus venue from-trf` reads it.
export function exportTrf() {
  let out = "012 IBCA Team Cup\n142 3\n162  W 1.0    D 0.5    L 0.0\n202 MPTS GPTS EDET BH:MP/C1 SB\n352 WB\n362 TW 2.0   TD 1.0   TL 0.0\n";
  for (let team = 1; team <= 4; team++) {
    for (let seat = 1; seat <= 3; seat++) {
      const rank = (team - 1) * 3 + seat;
      out += `001 ${String(rank).padStart(4)} m    ${`Player ${team}.${seat}`.padEnd(33)} ${String(2300 - rank).padStart(4)} GER ${String(4100000 + rank).padStart(11)} 1990/01/01  0.0 ${String(rank).padStart(4)}\n`;
    }
  }
  for (let team = 1; team <= 4; team++) {
    const ranks = [1, 2, 3].map((s) => String((team - 1) * 3 + s).padStart(4)).join(" ");
    out += `310 ${String(team).padStart(3)} ${`Team ${team}`.padEnd(32)} ${`T${team}`.padEnd(5)} ${"2000".padStart(6)} ${"0.0".padStart(6)} ${"0.0".padStart(6)} ${String(team).padStart(3)}  ${ranks}\n`;
  }
  return out;
}

/**
 * The export with round 1 paired: `matches` as [first team, its boards,
 * second team, its boards]; a `300` for a line-up out of the default.
 * @param {Array<[number, number[], number, number[]]>} matches
 */
export function roundOne(matches) {
  /** @type {Record<number, string>} */
  const block = {};
  let records = "";
  for (const [a, boardsA, b, boardsB] of matches) {
    boardsA.forEach((p, i) => {
      const q = boardsB[i];
      const [ca, cb] = i % 2 === 0 ? ["w", "b"] : ["b", "w"];
      block[p] = `  ${String(q).padStart(4)} ${ca}`;
      block[q] = `  ${String(p).padStart(4)} ${cb}`;
    });
    for (const [team, boards, other] of [[a, boardsA, b], [b, boardsB, a]]) {
      const first = [1, 2].map((s) => (team - 1) * 3 + s);
      if (boards.join() !== first.join()) {
        records += `300 ${String(1).padStart(3)} ${String(team).padStart(3)} ${String(other).padStart(3)} ${boards.map((r) => String(r).padStart(4)).join(" ")}\n`;
      }
    }
  }
  // A player who rests: `0000 - Z`.
  const lines = exportTrf().split("\n").map((l) => {
    if (!l.startsWith("001")) return l;
    const rank = Number(l.slice(4, 8));
    return l + (block[rank] || "  0000 - Z");
  });
  return lines.join("\n") + records;
}

/** A `[section]` of tokens.toml, keyed by number. */
export function section(text, name) {
  const body = text.split(new RegExp(`^\\[${name}\\]`, "m"))[1].split(/^\[/m)[0];
  /** @type {Record<string, string>} */
  const out = {};
  for (const m of body.matchAll(/^"?(\d+)"?\s*=\s*"([^"]*)"/gm)) out[m[1]] = m[2];
  return out;
}

// A team event's `tactus serve` of binary `bin` (the repository at
// `root`) in folder `dir`: its venue from the export, four tables.
// { proc, base, venue (the venue arbiter's token), players, captains }.
export async function startTeamServer(bin, root, dir) {
  const port = await freePort();
  writeFileSync(join(dir, "export.trf"), exportTrf());
  const teams = execFileSync(bin, ["venue", "from-trf", join(dir, "export.trf")], { encoding: "utf8" });
  let venue = "";
  for (let t = 1; t <= 4; t++) venue += `[[table]]\nid = "t${t}"\nboard = "none"\n\n`;
  writeFileSync(join(dir, "venue.toml"), venue + teams);
  const proc = spawn(bin, ["serve", "--config", join(dir, "venue.toml"), "--listen", `127.0.0.1:${port}`, "--data", join(dir, "data"),
    "--audio", "none", "--voice", join(root, "voices", "de-appendix-d")], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tactus serve did not start")), 60000);
    proc.stdout.on("data", (chunk) => { if (String(chunk).includes("tactus is serving")) { clearTimeout(timer); resolve(); } });
    proc.on("exit", (code) => reject(new Error("tactus serve exited: " + code)));
  });
  const text = readFileSync(join(dir, "data", "tokens.toml"), "utf8");
  return {
    proc,
    base: `http://127.0.0.1:${port}`,
    venue: text.match(/\[venue\]\s*arbiter = "([0-9a-f]+)"/)[1],
    players: section(text, "players"),
    captains: section(text, "captains"),
  };
}

/**
 * A request with the token `token`: the JSON (or text) answered; a status
 * that is not 2xx fails the test.
 */
export async function api(s, method, path, token, body, type = "application/json") {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = type;
  const res = await fetch(s.base + path, { method, headers, body });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? (type === "application/json" || text.startsWith("{") ? JSON.parse(text) : text) : null;
}

/** The fool's mate at `table`, each side by its own player's token. */
export async function foolsMate(s, table, white, black) {
  for (const [i, move] of ["f3", "e5", "g4", "Qh4#"].entries()) {
    await api(s, "POST", `/api/tables/${table}/move`, i % 2 === 0 ? white : black, JSON.stringify({ move }));
  }
}
