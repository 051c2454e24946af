// The arbiter's page: every table at a glance with alerts; one table with
// both boards, the record, the D.2.9 ruling, clock adjustments and results.
// @ts-check
/** @import { BoardView, Ruling, TableView } from "./api-types.js" */
import { byId, tactus } from "./common.js";
import { fromView, sightedBoard, tactileShows } from "./sighted-board.js";

(() => {
  const id = tactus.tableId;
  const log = byId("log");

  /** @param {TableView} t */
  function alertsText(t) {
    const a = (t.alerts || []).map(tactus.alertText);
    return a.length ? tactus.t("js-alert", { alerts: a.join("; ") }) : tactus.t("js-none");
  }

  /** @param {BoardView | null} b */
  function boardText(b) {
    if (!b) return tactus.t("js-no-board");
    if (!b.connected) return tactus.t("js-not-connected");
    return b.in_sync ? tactus.t("js-in-sync") : tactus.t("js-differs", { squares: b.differs.join(", ") });
  }

  // A card per table on the venue overview: a small board (the squares
  // where its tactile board differs outlined and marked ≠), the clocks
  // ticking, the alerts; kept from one reading to the next, so a screen
  // reader's place and the clocks' measure stay.
  /** @type {Map<string, { li: HTMLLIElement, board: ReturnType<typeof sightedBoard>, clocks: ReturnType<typeof tactus.clockBoard>, players: HTMLElement, board_text: HTMLElement, alerts: HTMLElement }>} */
  const cards = new Map();
  /** @param {TableView} v */
  function card(v) {
    let c = cards.get(v.id);
    if (!c) {
      const li = document.createElement("li");
      li.className = "table-card";
      li.dataset.table = v.id;
      const h = document.createElement("h3");
      const link = document.createElement("a");
      link.href = "/arbiter/" + encodeURIComponent(v.id);
      link.textContent = tactus.t("js-table", { table: v.id });
      h.appendChild(link);
      const players = document.createElement("p");
      const boardEl = document.createElement("div");
      const clockEl = document.createElement("div");
      const boardText = document.createElement("p");
      const alerts = document.createElement("p");
      li.append(h, players, boardEl, clockEl, boardText, alerts);
      byId("table-cards").appendChild(li);
      c = {
        li, players, board_text: boardText, alerts,
        board: sightedBoard(boardEl, { label: tactus.t("js-sb-table-board", { table: v.id }), small: true }),
        clocks: tactus.clockBoard(clockEl),
      };
      cards.set(v.id, c);
    }
    c.players.textContent = (v.white || tactus.sideName("white")) + " – " + (v.black || tactus.sideName("black")) +
      (v.result ? " · " + v.result.result : "");
    const differs = v.board && v.board.connected && !v.board.in_sync ? v.board.differs : [];
    c.board.update({ ...fromView(v), legal: [], marked: differs.length ? differs : undefined });
    c.clocks.update(v);
    c.board_text.textContent = tactus.t("js-arbiter-board", { board: boardText(v.board) });
    c.alerts.textContent = alertsText(v);
    c.alerts.className = v.alerts && v.alerts.length ? "alert" : "";
    c.li.classList.toggle("alerting", !!(v.alerts && v.alerts.length));
  }

  async function overview() {
    const r = await tactus.api("GET", "/api/tables");
    if (!r.ok) return;
    for (const v of /** @type {TableView[]} */ (r.data)) card(v);
    const body = byId("tables");
    body.replaceChildren();
    for (const t of /** @type {TableView[]} */ (r.data)) {
      const tr = document.createElement("tr");
      const link = document.createElement("a");
      link.href = "/arbiter/" + encodeURIComponent(t.id);
      link.textContent = tactus.t("js-table", { table: t.id });
      const cells = [link, (t.white || tactus.sideName("white")) + " – " + (t.black || tactus.sideName("black")), String(t.moves.length),
        tactus.clockText(t.clock.white_ms), tactus.clockText(t.clock.black_ms), boardText(t.board),
        t.result ? t.result.result : tactus.t("js-playing"), alertsText(t)];
      cells.forEach((c, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.scope = "row";
        if (typeof c === "string") td.textContent = c; else td.appendChild(c);
        if (i === 7 && t.alerts && t.alerts.length) td.className = "alert";
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
  }

  /** @type {ReturnType<typeof tactus.clockBoard> | null} */
  let clocks = null;
  /** @type {{ game: ReturnType<typeof sightedBoard>, tactile: ReturnType<typeof sightedBoard>, proposed: ReturnType<typeof sightedBoard>, sheet: ReturnType<typeof sightedBoard> } | null} */
  let boards = null;

  // The scoresheet printed from this page (A4, print CSS): the players,
  // the moves in two columns, the result and the final diagram.
  /** @param {TableView} s */
  function scoresheet(s) {
    const t = tactus.t;
    byId("sheet-title").textContent = t("js-sb-scoresheet", {
      table: s.id, round: s.round || "-", white: s.white || tactus.sideName("white"), black: s.black || tactus.sideName("black"),
    });
    byId("sheet-event").textContent = s.event;
    const body = byId("sheet-moves");
    body.replaceChildren();
    for (let i = 0; i < s.moves.length; i += 2) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = String(i / 2 + 1);
      const w = document.createElement("td");
      w.textContent = s.moves[i];
      const bl = document.createElement("td");
      bl.textContent = s.moves[i + 1] || "";
      tr.append(th, w, bl);
      body.appendChild(tr);
    }
    byId("sheet-result").textContent = s.result ? t("js-sb-result", { result: s.result.result }) + " (" + tactus.endingText(s.result) + ")" : t("js-playing");
    if (boards) boards.sheet.update({ ...fromView(s), legal: [] });
  }
  // The second blind player's link is the current game's only: asked
  // again whenever the table's game changes (the arbiter hands the new
  // link to the next round's player; the last one stops working).
  /** @type {number | null} */
  let linkGame = null;
  /** @param {number} game */
  async function secondBlind(game) {
    if (game === linkGame) return;
    linkGame = game;
    const r = await tactus.api("GET", "/api/tables/" + encodeURIComponent(id) + "/opponent-link");
    const box = byId("second-blind");
    if (!r.ok || !r.data || !r.data.plays) { box.hidden = true; return; }
    const t = tactus.t;
    byId("second-blind-note").textContent = t("js-second-blind-note", {
      side: tactus.sideName(r.data.plays), game: r.data.game, round: r.data.round || "-",
    });
    const a = byId("second-blind-link", HTMLAnchorElement);
    a.href = r.data.link;
    a.textContent = r.data.link;
    // Our own server's QR code of the link (an SVG document), hidden from
    // screen readers: the link above says the same.
    byId("second-blind-qr").innerHTML = r.data.svg;
    box.hidden = false;
  }

  /** @type {(rate: number) => void} */
  let showRate = () => {};
  /** @param {TableView} s */
  function render(s) {
    const t = tactus.t;
    if (clocks) clocks.update(s);
    showRate(s.rate);
    secondBlind(s.game);
    byId("summary").textContent = (s.white || tactus.sideName("white")) + " – " + (s.black || tactus.sideName("black")) + ". " +
      (s.result ? t("js-result", { result: s.result.result, reason: tactus.endingText(s.result) }) : t("js-to-move", { side: tactus.sideName(s.turn) })) +
      " " + t(s.clock.running ? "js-clock-running" : "js-clock-stopped") +
      (s.clock.flag && !s.result ? " " + t("js-flag-arbiter", { side: tactus.sideName(s.clock.flag) }) : "");
    const penalty = s.kind === "standard" ? 2 : 1;
    byId("kind").textContent = t("js-kind", { kind: t("js-kind-" + s.kind), minutes: penalty }) + " " +
      t("js-illegal-completed", { white: s.illegal_completed.white, black: s.illegal_completed.black }) + " " +
      t(s.flag_rule === "auto" ? "js-flag-auto" : "js-flag-claim-rule");
    byId("adj-seconds", HTMLInputElement).defaultValue = String(penalty * 60);
    // The game and the tactile board side by side, the squares where they
    // differ outlined and marked ≠ on both, and said in words.
    const b = s.board;
    const differs = b && b.connected && !b.in_sync ? b.differs : [];
    if (boards) {
      boards.game.update({ ...fromView(s), legal: [], marked: b ? differs : undefined });
      if (b && b.fen) {
        boards.tactile.element.hidden = false;
        // As the board senses it: what stands there, not what should.
        boards.tactile.update({ ...tactileShows(b), marked: differs });
        byId("blind-board-state").textContent = byId("blind-board-h").textContent + ": " + boardText(b) + ".";
      } else {
        boards.tactile.element.hidden = true;
        byId("blind-board-state").textContent = byId("blind-board-h").textContent + ": " + boardText(b) + ".";
      }
    }
    scoresheet(s);
    byId("record").textContent = (s.moves.length ? tactus.movesText(s.moves) : t("js-no-moves")) +
      " " + t("js-touched", { list: s.touched.length ? s.touched.map((x) => tactus.sideName(x.side) + " " + x.square).join(", ") : t("js-none") }) +
      " " + t("js-illegal-attempts", { list: s.illegal.length ? s.illegal.map((x) => tactus.sideName(x.side) + " " + x.text).join(", ") : t("js-none") });
    byId("alerts").textContent = s.alerts && s.alerts.length ? alertsText(s) : t("js-alerts-none");
  }

  /** @param {Ruling} r */
  function showRuling(r) {
    const out = byId("ruling");
    const t = tactus.t;
    const nothing = t("js-ruling-nothing");
    const lines = [
      t("js-ruling-case", { case: r.case, plies: r.agreed_plies }),
      r.first_difference ? t("js-ruling-first", { ply: r.first_difference.ply, white: r.first_difference.white || nothing, black: r.first_difference.black || nothing }) : t("js-ruling-agree"),
      t("js-ruling-position", { fen: r.position }),
    ];
    if (r.clock) lines.push(t("js-ruling-clocks", { white: tactus.clockText(r.clock.white_ms), black: tactus.clockText(r.clock.black_ms), how: t(r.clock.proposal ? "js-ruling-proposal" : "js-ruling-recorded") }));
    out.replaceChildren(...lines.map((l) => { const p = document.createElement("p"); p.textContent = l; return p; }));
    // The position the ruling gives, beside the two boards.
    if (boards && r.position) {
      byId("proposed").hidden = false;
      boards.proposed.update({ fen: r.position });
    }
    out.focus();
  }

  /** @param {boolean} apply */
  async function ruling(apply) {
    const r = await tactus.api("POST", "/api/tables/" + id + "/ruling", {
      white_sheet: byId("white-sheet", HTMLTextAreaElement).value,
      black_sheet: byId("black-sheet", HTMLTextAreaElement).value,
      apply,
    });
    if (r.ok) showRuling(r.data); else tactus.say(log, tactus.t("js-refused", { error: r.error }));
  }

  /** @param {string} path @param {unknown} [body] */
  async function post(path, body) {
    const r = await tactus.api("POST", "/api/tables/" + id + "/" + path, body);
    if (!r.ok) tactus.say(log, tactus.t("js-refused", { error: r.error }));
  }

  tactus.tokenForm(log);
  // The venue's overview only on the venue arbiter's page; a table's
  // page shows its own table, first.
  if (!id) {
    byId("overview").hidden = false;
    document.body.dataset.print = "results";
    overview();
    setInterval(overview, 2000);
  }
  if (id) {
    document.body.dataset.print = "scoresheet";
    const label = (/** @type {string} */ h) => byId(h).textContent || "";
    // The three diagrams side by side turn together.
    const together = (/** @type {import("./api-types.js").Side} */ side) => {
      if (boards) for (const b of [boards.game, boards.tactile, boards.proposed]) if (b.side() !== side) b.turnTo(side);
    };
    boards = {
      game: sightedBoard(byId("game-board"), { label: label("game-board-h"), turnable: true, onTurn: together }),
      tactile: sightedBoard(byId("blind-board"), { label: label("blind-board-h"), turnable: true, onTurn: together }),
      proposed: sightedBoard(byId("proposed-board"), { label: label("proposed-h"), turnable: true, onTurn: together }),
      sheet: sightedBoard(byId("sheet-board"), { label: tactus.t("js-sb-game") }),
    };
    byId("print-scoresheet").addEventListener("click", () => window.print());
    byId("title").textContent = tactus.t("js-arbiter-table", { table: id });
    byId("detail").hidden = false;
    byId("detail-h").textContent = tactus.t("js-table", { table: id });
    byId("pgn", HTMLAnchorElement).href = "/api/tables/" + encodeURIComponent(id) + "/pgn";
    byId("ruling-form").addEventListener("submit", (e) => { e.preventDefault(); ruling(false); });
    byId("apply-ruling").addEventListener("click", () => ruling(true));
    byId("adjust-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("clock/adjust", { side: byId("adj-side", HTMLSelectElement).value, seconds: Number(byId("adj-seconds", HTMLInputElement).value), reason: byId("adj-reason", HTMLInputElement).value });
    });
    byId("illegal-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("illegal/completed", { side: byId("illegal-side", HTMLSelectElement).value });
    });
    // The table's speaking rate: the select shows the table's until the
    // arbiter changes it; set, the table says its next words at that rate.
    const rate = byId("rate", HTMLSelectElement);
    let rateTouched = false;
    rate.addEventListener("change", () => { rateTouched = true; });
    byId("rate-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await tactus.api("POST", "/api/tables/" + id + "/rate", { rate: Number(rate.value) });
      if (!r.ok) return tactus.say(log, tactus.t("js-refused", { error: r.error }));
      rateTouched = false;
      tactus.say(log, tactus.t("js-rate-set", { rate: String(r.data.rate) }));
    });
    showRate = (/** @type {number} */ value) => { if (!rateTouched) rate.value = String(Math.round(value * 10) / 10); };
    byId("result-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("result", { result: byId("result", HTMLSelectElement).value, reason: byId("result-reason", HTMLInputElement).value });
    });
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-post]"))) b.addEventListener("click", () => post(b.dataset.post || ""));
    byId("opponent-link", HTMLAnchorElement).href = "/table/" + encodeURIComponent(id) + "/opponent";
    clocks = tactus.clockBoard(byId("clocks"));
    tactus.api("GET", "/api/tables/" + id).then((r) => r.ok && render(r.data));
    tactus.follow(id, {
      state: render,
      announcement: (a) => tactus.say(log, a.text, tactus.voiceLanguage()),
      connection: (up) => { if (!up && clocks) clocks.reconnected(); },
    });
  }
})();
