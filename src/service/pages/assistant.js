// The assistant's page (Appendix D.2.10): the sighted player's moves, the
// player's requests, touched pieces, draws, flag falls, the clock.
// @ts-check
/** @import { TableView } from "./api-types.js" */
import { tactus } from "./common.js";

(() => {
  const id = tactus.tableId;
  const base = "/api/tables/" + encodeURIComponent(id) + "/";
  const log = document.getElementById("log");
  const side = /** @type {HTMLSelectElement} */ (document.getElementById("act-side"));
  const clocks = tactus.clockBoard(document.getElementById("clocks"));

  /** @param {TableView} s */
  function render(s) {
    const t = tactus.t;
    document.getElementById("summary").textContent = s.result
      ? t("js-game-over", { result: s.result.result, reason: tactus.endingText(s.result) })
      : t("js-to-move", { side: tactus.sideName(s.turn) }) + " " + t("js-blind-player", { side: tactus.sideName(s.blind) }) +
        (s.draw_offer ? " " + t("js-draw-offered-by", { side: tactus.sideName(s.draw_offer) }) : "");
    clocks.update(s);
    document.getElementById("flag").textContent = s.clock.flag && !s.result ? t("js-flag-claim", { side: tactus.sideName(s.clock.flag) }) : "";
    const b = s.board;
    document.getElementById("boardstate").textContent = !b ? "" : !b.connected ? t("js-tactile-not-connected") : b.in_sync ? t("js-tactile-in-sync") : t("js-tactile-differs", { squares: b.differs.join(", ") });
    document.getElementById("moves").textContent = s.moves.length ? tactus.movesText(s.moves) : t("js-no-moves");
  }

  /** @param {string} path @param {unknown} [body] */
  async function post(path, body) {
    const r = await tactus.api("POST", base + path, body);
    if (!r.ok) tactus.say(log, tactus.t("js-refused", { error: r.error }));
    else if (r.data && r.data.text) tactus.say(log, r.data.text);
  }

  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ (document.getElementById("move-input"));
    const move = input.value.trim();
    input.value = "";
    if (move) post("move", tactus.moveBody({ move }));
  });
  document.getElementById("touch-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const sq = /** @type {HTMLInputElement} */ (document.getElementById("touch-square"));
    post("touched", { side: /** @type {HTMLSelectElement} */ (document.getElementById("touch-side")).value, square: sq.value.trim().toLowerCase() });
    sq.value = "";
  });
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-post]"))) b.addEventListener("click", () => post(b.dataset.post));
  // A claim may declare the move that brings it about (9.2.1.1, 9.3.1):
  // only the player on move claims, which the server checks.
  const claimMove = /** @type {HTMLInputElement} */ (document.getElementById("claim-move"));
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-side-post]"))) b.addEventListener("click", () => {
    /** @type {Record<string, unknown>} */
    const body = { side: side.value };
    if (b.dataset.sidePost.startsWith("draw/claim/") && claimMove.value.trim()) {
      body.move = claimMove.value.trim();
      tactus.moveBody(body);
      claimMove.value = "";
    }
    post(b.dataset.sidePost, body);
  });
  document.getElementById("say-used").addEventListener("click", () => post("clock/say", { time: "used" }));
  /** @type {HTMLAnchorElement} */ (document.getElementById("pgn")).href = base + "pgn";

  tactus.tokenForm(log);
  tactus.notation();
  tactus.api("GET", base.slice(0, -1)).then((r) => r.ok ? render(r.data) : tactus.say(log, r.error));
  tactus.follow(id, {
    state: render,
    announcement: (a) => tactus.say(log, a.text, tactus.voiceLanguage()),
    connection: (up) => { if (!up) clocks.reconnected(); },
  });
})();
