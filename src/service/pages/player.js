// The blind player's page: every announcement into the log (a live region),
// moves and lichess-style commands typed into one box, keyboard only.
"use strict";
(() => {
  const log = document.getElementById("log");
  const input = document.getElementById("move-input");
  const summary = document.getElementById("summary");
  const id = tactus.tableId;
  let state = null;


  function render(s) {
    state = s;
    const t = tactus.t;
    let text = t("js-you-play", { side: tactus.sideName(s.blind) }) + " ";
    text += s.result ? t("js-game-over", { result: s.result.result, reason: s.result.reason })
      : t("js-to-move-number", { side: tactus.sideName(s.turn), number: Math.floor(s.moves.length / 2) + 1 });
    if (s.board && !s.board.connected) text += " " + t("js-board-not-connected");
    else if (s.board && !s.board.in_sync) text += " " + t("js-board-differs-yours");
    summary.textContent = text;
  }

  // Square list of a FEN placement: "e4" -> "P" etc.
  function squares(fen) {
    const out = {};
    const rows = fen.split(" ")[0].split("/");
    rows.forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else { out["abcdefgh"[file] + (8 - i)] = ch; file += 1; }
      }
    });
    return out;
  }

  function pieceName(ch) {
    return tactus.t("js-colored-piece", {
      color: tactus.t(ch === ch.toUpperCase() ? "js-white-lower" : "js-black-lower"),
      piece: tactus.t("js-piece-" + ch.toLowerCase()),
    });
  }

  async function command(text) {
    const t = text.trim();
    if (!state) return tactus.say(log, tactus.t("js-still-loading"));
    const sq = squares(state.fen);
    // c: the clock as the table tells it; cl / cu: the time left / used
    // (D.2.6.1, D.2.10.4).
    if (t === "c" || t === "cl" || t === "cu") {
      const body = t === "c" ? undefined : { time: t === "cu" ? "used" : "left" };
      const r = await tactus.api("POST", "/api/tables/" + id + "/clock/say", body);
      return tactus.say(log, r.ok ? r.data.text : r.error);
    }
    if (t === "r") {
      const r = await tactus.api("POST", "/api/tables/" + id + "/repeat");
      if (!r.ok) tactus.say(log, r.error);
      else if (!r.data.text) tactus.say(log, tactus.t("js-nothing-to-repeat"));
      return;
    }
    if (t === "l") {
      if (!state.moves.length) return tactus.say(log, tactus.t("js-no-moves"));
      return tactus.say(log, tactus.t("js-last-moves", { moves: tactus.movesText(state.moves).split(" ").slice(-6).join(" ") }));
    }
    if (t === "m") return tactus.say(log, state.moves.length ? tactus.movesText(state.moves) : tactus.t("js-no-moves"));
    if (t === "d") {
      const r = await tactus.api("POST", "/api/tables/" + id + "/board/differences");
      return tactus.say(log, r.ok ? (r.data.text || tactus.t("js-board-shows-game")) : r.error);
    }
    let m = t.match(/^p\s*([kqrbnpKQRBNP])$/);
    if (m) {
      const found = Object.keys(sq).filter((s) => sq[s] === m[1]).sort();
      return tactus.say(log, tactus.t("js-pieces-at", { piece: pieceName(m[1]), squares: found.length ? found.join(", ") : tactus.t("js-none") }));
    }
    m = t.match(/^s\s*([a-h1-8])$/);
    if (m) {
      const key = m[1];
      const list = /[a-h]/.test(key) ? [1, 2, 3, 4, 5, 6, 7, 8].map((r) => key + r) : [..."abcdefgh"].map((f) => f + key);
      return tactus.say(log, list.map((s) => s + " " + (sq[s] ? pieceName(sq[s]) : tactus.t("js-empty"))).join(", "));
    }
    const r = await tactus.api("POST", "/api/tables/" + id + "/move", tactus.moveBody({ move: t }));
    if (!r.ok) tactus.say(log, r.error);
  }

  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value;
    input.value = "";
    if (text.trim()) command(text);
  });
  for (const b of document.querySelectorAll("button[data-cmd]")) {
    b.addEventListener("click", () => command(b.dataset.cmd));
  }

  tactus.tokenForm(log);
  tactus.notation();
  tactus.api("GET", "/api/tables/" + id).then((r) => {
    if (!r.ok) return tactus.say(log, r.error);
    render(r.data);
    // Joining mid-game: the last thing said, so the player knows where play is.
    if (r.data.last_announcement) tactus.say(log, tactus.t("js-last-announcement", { text: r.data.last_announcement }));
  });
  tactus.follow(id, {
    state: render,
    announcement: (a) => tactus.say(log, a.text, tactus.voiceLanguage()),
    connection: (up) => { if (!up) summary.textContent = tactus.t("js-connection-lost"); },
  });
  input.focus();
})();
