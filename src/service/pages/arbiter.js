// The arbiter's page: every table at a glance with alerts; one table with
// both boards, the record, the D.2.9 ruling, clock adjustments and results.
// @ts-check
/** @import { BoardView, Ruling, TableView } from "./api-types.js" */
import { byId, tactus } from "./common.js";

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

  async function overview() {
    const r = await tactus.api("GET", "/api/tables");
    if (!r.ok) return;
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

  // An 8x8 table with FEN letters; differing squares carry a * and a word
  // for screen readers, and a dashed outline: never colour alone.
  /**
   * @param {HTMLElement} el
   * @param {string} fen
   * @param {string[]} differs
   * @param {string} label
   */
  function drawBoard(el, fen, differs, label) {
    const rows = fen.split(" ")[0].split("/");
    const table = document.createElement("table");
    table.className = "board";
    const cap = document.createElement("caption");
    cap.textContent = label + " — " + (differs.length ? tactus.t("js-differs-at", { squares: differs.join(", ") }) : tactus.t("js-no-differences"));
    table.appendChild(cap);
    rows.forEach((row, i) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = String(8 - i);
      tr.appendChild(th);
      let file = 0;
      for (const ch of row) {
        const n = /\d/.test(ch) ? Number(ch) : 1;
        for (let k = 0; k < n; k++) {
          const sq = "abcdefgh"[file] + (8 - i);
          const td = document.createElement("td");
          const piece = /\d/.test(ch) ? "·" : ch;
          const bad = differs.includes(sq);
          td.textContent = piece + (bad ? "*" : "");
          td.setAttribute("aria-label", sq + " " + (/\d/.test(ch) ? tactus.t("js-empty") : ch) + (bad ? ", " + tactus.t("js-square-differs") : ""));
          if (bad) td.className = "differs";
          tr.appendChild(td);
          file += 1;
        }
      }
      table.appendChild(tr);
    });
    const foot = document.createElement("tr");
    foot.appendChild(document.createElement("td"));
    for (const f of "abcdefgh") { const th = document.createElement("th"); th.scope = "col"; th.textContent = f; foot.appendChild(th); }
    table.appendChild(foot);
    el.replaceChildren(table);
  }

  /** @type {ReturnType<typeof tactus.clockBoard> | null} */
  let clocks = null;
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
    drawBoard(byId("game-board"), s.fen, [], byId("game-board-h").textContent);
    const b = s.board;
    if (b && b.fen) drawBoard(byId("blind-board"), b.fen, b.differs || [], byId("blind-board-h").textContent + " (" + boardText(b) + ")");
    else byId("blind-board").textContent = byId("blind-board-h").textContent + ": " + boardText(b) + ".";
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
  overview();
  setInterval(overview, 2000);
  if (id) {
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
