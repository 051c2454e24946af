// The assistant's page (Appendix D.2.10): the sighted player's moves, the
// player's requests, touched pieces, draws, flag falls, the clock.
// @ts-check
/** @import { TableView } from "./api-types.js" */
import { byId, tactus } from "./common.js";
import { fromView, sightedBoard } from "./sighted-board.js";

(() => {
  const id = tactus.tableId;
  const base = "/api/tables/" + encodeURIComponent(id) + "/";
  const log = byId("log");
  const side = byId("act-side", HTMLSelectElement);
  const clocks = tactus.clockBoard(byId("clocks"));
  // The board: a move made on it is the move box's request, with the same
  // rules and refusals; picks and refusals are said in its status region.
  const board = sightedBoard(byId("sighted-board"), {
    label: tactus.t("js-sb-game"),
    turnable: true,
    status: byId("board-status"),
    onMove: async (uci) => {
      const r = await tactus.api("POST", base + "move", tactus.moveBody({ move: uci }));
      // Made, the move is said in the log by the live stream.
      if (!r.ok) tactus.say(byId("board-status"), tactus.t("js-refused", { error: r.error }));
    },
  });
  let turned = false;

  /** @param {TableView} s */
  function render(s) {
    const t = tactus.t;
    byId("summary").textContent = s.result
      ? t("js-game-over", { result: s.result.result, reason: tactus.endingText(s.result) })
      : t("js-to-move", { side: tactus.sideName(s.turn) }) + " " + t("js-blind-player", { side: tactus.sideName(s.blind) }) +
        (s.draw_offer ? " " + t("js-draw-offered-by", { side: tactus.sideName(s.draw_offer) }) : "");
    clocks.update(s);
    // Seen from the sighted player's side until turned.
    if (!turned) { turned = true; board.turnTo(s.blind === "white" ? "black" : "white"); }
    board.update(fromView(s));
    byId("flag").textContent = s.clock.flag && !s.result ? t("js-flag-claim", { side: tactus.sideName(s.clock.flag) }) : "";
    const b = s.board;
    byId("boardstate").textContent = !b ? "" : !b.connected ? t("js-tactile-not-connected") : b.in_sync ? t("js-tactile-in-sync") : t("js-tactile-differs", { squares: b.differs.join(", ") });
    byId("moves").textContent = s.moves.length ? tactus.movesText(s.moves) : t("js-no-moves");
  }

  /** @param {string} path @param {unknown} [body] */
  async function post(path, body) {
    const r = await tactus.api("POST", base + path, body);
    if (!r.ok) tactus.say(log, tactus.t("js-refused", { error: r.error }));
    else if (r.data && r.data.text) tactus.say(log, r.data.text);
  }

  byId("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = byId("move-input", HTMLInputElement);
    const move = input.value.trim();
    input.value = "";
    if (move) post("move", tactus.moveBody({ move }));
  });
  byId("touch-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const sq = byId("touch-square", HTMLInputElement);
    post("touched", { side: byId("touch-side", HTMLSelectElement).value, square: sq.value.trim().toLowerCase() });
    sq.value = "";
  });
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-post]"))) b.addEventListener("click", () => post(b.dataset.post || ""));
  // A claim may declare the move that brings it about (9.2.1.1, 9.3.1):
  // only the player on move claims, which the server checks.
  const claimMove = byId("claim-move", HTMLInputElement);
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-side-post]"))) b.addEventListener("click", () => {
    /** @type {Record<string, unknown>} */
    const body = { side: side.value };
    const path = b.dataset.sidePost || "";
    if (path.startsWith("draw/claim/") && claimMove.value.trim()) {
      body.move = claimMove.value.trim();
      tactus.moveBody(body);
      claimMove.value = "";
    }
    post(path, body);
  });
  byId("say-used").addEventListener("click", () => post("clock/say", { time: "used" }));
  byId("pgn", HTMLAnchorElement).href = base + "pgn";

  tactus.tokenForm(log);
  tactus.notation();
  tactus.api("GET", base.slice(0, -1)).then((r) => r.ok ? render(r.data) : tactus.say(log, r.error));
  tactus.follow(id, {
    state: render,
    announcement: (a) => tactus.say(log, a.text, tactus.voiceLanguage()),
    connection: (up) => { if (!up) clocks.reconnected(); },
  });
})();
