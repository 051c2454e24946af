// The arbiter's page: every table at a glance with alerts; one table with
// both boards, the record, the D.2.9 ruling, clock adjustments and results.
"use strict";
(() => {
  const id = tactus.tableId;
  const log = document.getElementById("log");

  function alertsText(t) {
    const a = (t.alerts || []).map((x) => x.text);
    return a.length ? "Alert: " + a.join("; ") : "none";
  }

  function boardText(b) {
    if (!b) return "no board";
    if (!b.connected) return "not connected";
    return b.in_sync ? "in sync" : "differs (" + b.differs.join(", ") + ")";
  }

  async function overview() {
    const r = await tactus.api("GET", "/api/tables");
    if (!r.ok) return;
    const body = document.getElementById("tables");
    body.replaceChildren();
    for (const t of r.data) {
      const tr = document.createElement("tr");
      const link = document.createElement("a");
      link.href = "/arbiter/" + encodeURIComponent(t.id);
      link.textContent = "Table " + t.id;
      const cells = [link, (t.white || "White") + " – " + (t.black || "Black"), String(t.moves.length),
        tactus.clockText(t.clock.white_ms), tactus.clockText(t.clock.black_ms), boardText(t.board),
        t.result ? t.result.result : "playing", alertsText(t)];
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
  function drawBoard(el, fen, differs, label) {
    const rows = fen.split(" ")[0].split("/");
    const table = document.createElement("table");
    table.className = "board";
    const cap = document.createElement("caption");
    cap.textContent = label + (differs.length ? " — differs at " + differs.join(", ") + " (marked *)" : " — no differences");
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
          td.setAttribute("aria-label", sq + " " + (/\d/.test(ch) ? "empty" : ch) + (bad ? ", differs" : ""));
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

  function render(s) {
    document.getElementById("summary").textContent = (s.white || "White") + " – " + (s.black || "Black") + ". " +
      (s.result ? "Result " + s.result.result + " (" + s.result.reason + ")." : (s.turn === "white" ? "White" : "Black") + " to move.") +
      " Clock: White " + tactus.clockText(s.clock.white_ms) + ", Black " + tactus.clockText(s.clock.black_ms) + (s.clock.running ? ", running." : ", stopped.") +
      (s.clock.flag && !s.result ? " " + (s.clock.flag === "white" ? "White" : "Black") + "'s time is up: the flag has fallen once you observe it or it is claimed (6.8)." : "");
    const penalty = s.kind === "standard" ? 2 : 1;
    document.getElementById("kind").textContent = "This is a " + s.kind + " game (Appendix A.1, B.1): each time penalty of Articles 7 and 9 is " +
      penalty + (penalty === 1 ? " minute." : " minutes.") + " Completed illegal moves: White " + s.illegal_completed.white + ", Black " + s.illegal_completed.black +
      " (the second loses the game, 7.5.5). A clock reaching zero " + (s.flag_rule === "auto" ? "ends the game at once." : "ends the game when the fall is claimed.");
    document.getElementById("adj-seconds").defaultValue = String(penalty * 60);
    drawBoard(document.getElementById("game-board"), s.fen, [], "Game position");
    const b = s.board;
    if (b && b.fen) drawBoard(document.getElementById("blind-board"), b.fen, b.differs || [], "Tactile board (" + boardText(b) + ")");
    else document.getElementById("blind-board").textContent = "Tactile board: " + boardText(b) + ".";
    document.getElementById("record").textContent = (s.moves.length ? tactus.movesText(s.moves) : "No moves yet.") +
      " Touched: " + (s.touched.length ? s.touched.map((t) => t.side + " " + t.square).join(", ") : "none") +
      ". Illegal attempts: " + (s.illegal.length ? s.illegal.map((t) => t.side + " " + t.text).join(", ") : "none") + ".";
    document.getElementById("alerts").textContent = s.alerts && s.alerts.length ? alertsText(s) : "Alerts: none.";
  }

  function showRuling(r) {
    const out = document.getElementById("ruling");
    const lines = [
      "Case: " + r.case + ". Agreed plies: " + r.agreed_plies + ".",
      r.first_difference ? "First difference at ply " + r.first_difference.ply + ": White's sheet " + (r.first_difference.white || "(nothing)") + ", Black's sheet " + (r.first_difference.black || "(nothing)") + "." : "The sheets agree.",
      "Position to play on: " + r.position,
    ];
    if (r.clock) lines.push("Clocks: White " + tactus.clockText(r.clock.white_ms) + ", Black " + tactus.clockText(r.clock.black_ms) + (r.clock.proposal ? " (a proposal)" : " (as recorded)") + ".");
    out.replaceChildren(...lines.map((l) => { const p = document.createElement("p"); p.textContent = l; return p; }));
    out.focus();
  }

  async function ruling(apply) {
    const r = await tactus.api("POST", "/api/tables/" + id + "/ruling", {
      white_sheet: document.getElementById("white-sheet").value,
      black_sheet: document.getElementById("black-sheet").value,
      apply,
    });
    if (r.ok) showRuling(r.data); else tactus.say(log, "Refused: " + r.error);
  }

  async function post(path, body) {
    const r = await tactus.api("POST", "/api/tables/" + id + "/" + path, body);
    if (!r.ok) tactus.say(log, "Refused: " + r.error);
  }

  tactus.tokenForm(log);
  overview();
  setInterval(overview, 2000);
  if (id) {
    document.getElementById("title").textContent = "Arbiter, table " + id;
    document.getElementById("detail").hidden = false;
    document.getElementById("detail-h").textContent = "Table " + id;
    document.getElementById("pgn").href = "/api/tables/" + encodeURIComponent(id) + "/pgn";
    document.getElementById("ruling-form").addEventListener("submit", (e) => { e.preventDefault(); ruling(false); });
    document.getElementById("apply-ruling").addEventListener("click", () => ruling(true));
    document.getElementById("adjust-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("clock/adjust", { side: document.getElementById("adj-side").value, seconds: Number(document.getElementById("adj-seconds").value), reason: document.getElementById("adj-reason").value });
    });
    document.getElementById("illegal-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("illegal/completed", { side: document.getElementById("illegal-side").value });
    });
    document.getElementById("result-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("result", { result: document.getElementById("result").value, reason: document.getElementById("result-reason").value });
    });
    for (const b of document.querySelectorAll("button[data-post]")) b.addEventListener("click", () => post(b.dataset.post));
    tactus.api("GET", "/api/tables/" + id).then((r) => r.ok && render(r.data));
    tactus.follow(id, { state: render, announcement: (a) => tactus.say(log, a.text) });
  }
})();
