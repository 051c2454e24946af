// The sighted opponent's page (D.2.11: a blind player facing an opponent
// who cannot hear the announcements): the last announcement in large text
// with a number and a "new" mark that change at every announcement, both
// clocks ticking, the side to move in words. Read only: it needs no token.
// @ts-check
/** @import { TableView } from "./api-types.js" */
import { byId, tactus } from "./common.js";
import { fromView, sightedBoard } from "./sighted-board.js";

(() => {
  const id = tactus.tableId;
  const t = tactus.t;
  const said = byId("said");
  const count = byId("said-count");
  const mark = byId("said-new");
  const clocks = tactus.clockBoard(byId("clocks"));
  let heard = 0;
  const board = sightedBoard(byId("sighted-board"), { label: t("js-sb-game"), turnable: true });
  let turned = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let fade;

  /** @param {TableView} s */
  function render(s) {
    clocks.update(s);
    // Seen from the sighted opponent's side until turned.
    if (!turned) { turned = true; board.turnTo(s.blind === "white" ? "black" : "white"); }
    board.update(fromView(s));
    byId("players").textContent =
      t("js-players", { white: s.white || tactus.sideName("white"), black: s.black || tactus.sideName("black") });
    byId("summary").textContent = s.result
      ? t("js-game-over", { result: s.result.result, reason: tactus.endingText(s.result) })
      : t("js-to-move-number", { side: tactus.sideName(s.turn), number: Math.floor(s.moves.length / 2) + 1 });
    byId("moves").textContent = s.moves.length
      ? tactus.movesText(s.moves).split(" ").slice(-9).join(" ") : t("js-no-moves");
    if (!heard && s.last_announcement && !said.textContent) show(s.last_announcement, false);
  }

  // A new announcement: its text, its number, and the "new" mark for a few
  // seconds; the box flashes unless the reader asked for less motion (CSS).
  /** @param {string} text @param {boolean} fresh */
  function show(text, fresh) {
    said.textContent = text;
    const lang = tactus.voiceLanguage();
    if (lang && lang !== tactus.pageLang) said.lang = lang; else said.removeAttribute("lang");
    if (!fresh) { count.textContent = t("js-opponent-earlier"); return; }
    heard += 1;
    count.textContent = t("js-opponent-count", { number: heard });
    mark.hidden = false;
    const box = /** @type {HTMLElement} */ (said.parentElement);
    box.classList.remove("fresh");
    void box.offsetWidth; // restarts the animation
    box.classList.add("fresh");
    clearTimeout(fade);
    fade = setTimeout(() => { mark.hidden = true; box.classList.remove("fresh"); }, 6000);
  }

  tactus.api("GET", "/api/tables/" + encodeURIComponent(id)).then((r) => r.ok && render(r.data));
  tactus.follow(id, {
    state: render,
    announcement: (a) => show(a.text, true),
    connection: (up) => {
      if (!up) { clocks.reconnected(); byId("summary").textContent = t("js-connection-lost"); }
    },
  });
})();
