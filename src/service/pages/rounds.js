// The arbiter's overview: the competition's rounds, a round set up from the
// pairing program's TRF file, its clocks started together, and the results
// back as PGN and TRF. Needs the venue arbiter's token (the link printed at
// start-up) for the writes; reading is open.
// @ts-check
/** @import { RoundGame, Rounds, TableView, Unpaired } from "./api-types.js" */
import { byId, tactus } from "./common.js";

(() => {
  if (tactus.tableId) return;
  byId("rounds").hidden = false;
  const list = byId("rounds-list");
  const status = byId("rounds-status");
  const t = tactus.t;
  const stateText = (/** @type {RoundGame} */ g) => g.state === "finished" ? t("js-game-finished", { result: g.result || "" })
    : t(g.state === "under_way" ? "js-game-under-way" : "js-game-not-begun");

  // The results sheet (printed, A4): one round's games, board by board,
  // with their results; the latest round until another is chosen.
  /** @type {Rounds["rounds"]} */
  let rounds = [];
  /** @type {string | null} */
  let chosen = null;
  // Without rounds (an event run without the pairing program's files),
  // the games at the tables now.
  async function tablesRound() {
    const r = await tactus.api("GET", "/api/tables");
    if (!r.ok) return null;
    return {
      round: "",
      games: /** @type {TableView[]} */ (r.data).map((v) => /** @type {RoundGame} */ ({
        table: v.id, white: v.white || t("js-white"), black: v.black || t("js-black"),
        state: v.result ? "finished" : v.begun ? "under_way" : "not_begun", result: v.result ? v.result.result : null,
      })),
    };
  }
  async function resultsSheet() {
    const round = rounds.find((r) => r.round === chosen) || rounds[rounds.length - 1] || await tablesRound();
    const out = byId("results-body");
    if (!round) { out.textContent = t("js-no-rounds"); return; }
    const h = document.createElement("h3");
    h.textContent = round.round ? t("js-round", { round: round.round }) : t("js-results-now");
    const table = document.createElement("table");
    table.className = "results-table";
    const head = document.createElement("tr");
    for (const w of [t("js-results-board"), t("js-results-table"), t("js-white"), t("js-black"), t("js-results-result")]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = w;
      head.appendChild(th);
    }
    const thead = document.createElement("thead");
    thead.appendChild(head);
    const body = document.createElement("tbody");
    round.games.forEach((g, i) => {
      const tr = document.createElement("tr");
      for (const w of [String(i + 1), g.table, g.white, g.black, g.state === "finished" ? g.result || "" : stateText(g)]) {
        const td = document.createElement("td");
        td.textContent = w;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    });
    table.append(thead, body);
    out.replaceChildren(h, table);
  }
  list.addEventListener("click", (e) => {
    const b = /** @type {Element} */ (e.target).closest("button[data-print-round]");
    if (!(b instanceof HTMLButtonElement)) return;
    chosen = b.dataset.printRound || null;
    resultsSheet().then(() => window.print());
  });

  async function refresh() {
    const r = await tactus.api("GET", "/api/rounds");
    if (!r.ok) return;
    rounds = /** @type {Rounds} */ (r.data).rounds;
    resultsSheet();
    const frag = document.createDocumentFragment();
    if (r.data.rounds.length === 0) {
      const p = document.createElement("p");
      p.textContent = t("js-no-rounds");
      frag.appendChild(p);
    }
    for (const round of /** @type {Rounds} */ (r.data).rounds) {
      const h = document.createElement("h3");
      h.textContent = t("js-round", { round: round.round });
      const ul = document.createElement("ul");
      for (const g of round.games) {
        const li = document.createElement("li");
        li.textContent = t("js-round-game", { table: g.table, white: g.white, black: g.black, state: stateText(g) });
        ul.appendChild(li);
      }
      // A team event's matches, each with its score as the results come.
      const matches = document.createElement("ul");
      for (const m of round.matches || []) {
        const li = document.createElement("li");
        li.textContent = m.second
          ? t("js-round-match", { first: m.first.name, second: m.second.name, a: m.score[0], b: m.score[1] })
          : t("js-round-match-bye", { first: m.first.name });
        matches.appendChild(li);
      }
      const a = document.createElement("a");
      a.href = "/api/rounds/" + encodeURIComponent(round.round) + "/pgn";
      a.textContent = t("js-round-pgn", { round: round.round });
      const p = document.createElement("p");
      p.appendChild(a);
      const print = document.createElement("button");
      print.type = "button";
      print.dataset.printRound = round.round;
      print.textContent = t("js-print-results", { round: round.round });
      const pp = document.createElement("p");
      pp.appendChild(print);
      frag.append(h, ...(matches.childElementCount ? [matches] : []), ul, p, pp);
    }
    // Replaced only when it changed, so a screen reader's place is kept.
    const next = document.createElement("div");
    next.appendChild(frag);
    if (next.innerHTML !== list.innerHTML) list.replaceChildren(...next.childNodes);
  }

  byId("trf-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const files = byId("trf-file", HTMLInputElement).files;
    const file = files && files[0];
    const round = byId("trf-round", HTMLInputElement).value;
    if (!file) return;
    // The bytes as the pairing program wrote them (UTF-8 or a code page).
    /** @type {Record<string, string>} */
    const headers = { "Content-Type": "text/plain", "Accept": "application/json" };
    const token = tactus.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    let res;
    try {
      res = await fetch("/api/rounds?round=" + encodeURIComponent(round), { method: "POST", headers, body: await file.arrayBuffer() });
    } catch (err) {
      tactus.say(status, t("js-server-unreachable"));
      return;
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      tactus.say(status, t("js-refused", { error: data.error || String(res.status) }));
      return;
    }
    tactus.say(status, t("js-round-set-up", { round: data.round, count: data.games.length }));
    for (const u of /** @type {Unpaired[]} */ (data.unpaired)) {
      tactus.say(status, t("js-round-unpaired", { name: u.name, why: t("js-unpaired-" + u.key, u.args) }));
    }
    refresh();
  });

  byId("start-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const round = byId("start-round", HTMLInputElement).value.trim();
    const r = await tactus.api("POST", "/api/rounds/" + encodeURIComponent(round) + "/start");
    if (!r.ok) tactus.say(status, t("js-refused", { error: r.error }));
    else tactus.say(status, t("js-round-started", { round, count: r.data.started.length }));
    refresh();
  });

  // The TRF holds every player's birth date and FIDE id: it needs the
  // venue arbiter's token, sent as a header, and is saved from memory.
  byId("trf-download").addEventListener("click", async (e) => {
    e.preventDefault();
    /** @type {Record<string, string>} */
    const headers = {};
    const token = tactus.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    let res;
    try {
      res = await fetch("/api/trf", { headers, cache: "no-store" });
    } catch (err) {
      tactus.say(status, t("js-server-unreachable"));
      return;
    }
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      tactus.say(status, t("js-refused", { error: data.error || String(res.status) }));
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = "tactus.trf";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  refresh();
  setInterval(refresh, 5000);
})();
