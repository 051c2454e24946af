// The explorable board on the player's page, after lichess's blind mode
// (nvui): the 64 squares as an ARIA grid seen from the player's side, one
// square in the tab order at a time (a roving tabindex), each square named
// with what stands on it. Keys, with the focus on a square:
//   arrows        one square (up: towards the opponent)
//   Home / End    first / last square of the rank; with Ctrl, of the board
//   1 … 8         that rank, same file; Shift+1 … 8: file a … h, same rank
//                 (by key position, so any keyboard layout works)
//   k q r b n p   the next king, queen, … of either colour, in reading
//                 order; with Shift the previous one; wraps round
//   l             the last move, its squares named
//   Enter, Space  pick a square to move from, then the square to move to
//   Escape        drop the pick, or back to the move box
// What the square holds is its accessible name, so a screen reader says it
// as the focus arrives; what focus cannot say (the edge, no such piece, the
// last move, a pick) goes to the status region below the board.
// @ts-check
/** @import { Side, TableView } from "./api-types.js" */
import { tactus } from "./common.js";

export const tactusBoard = (() => {
  const FILES = "abcdefgh";
  /** @type {Record<string, string>} */
  const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

  // FEN placement → { "e4": "P", … }.
  /**
   * @param {string} fen
   * @returns {Record<string, string>}
   */
  function placement(fen) {
    /** @type {Record<string, string>} */
    const out = {};
    fen.split(" ")[0].split("/").forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else { out[FILES[file] + (8 - i)] = ch; file += 1; }
      }
    });
    return out;
  }

  // opts: table (the <table>), status (the status element), move (sends a
  // move typed as "g1-f3"), promote (a pawn move to the last rank: its
  // squares, for the piece to be asked), back (focus the move box),
  // pieceName(ch), lastMove() (the words for the last move or null).
  /**
   * @typedef {object} BoardOptions
   * @property {HTMLTableElement} table
   * @property {HTMLElement} status
   * @property {(text: string) => Promise<void>} move
   * @property {(from: string, to: string) => void} promote
   * @property {() => void} back
   * @property {(ch: string) => string} pieceName
   * @property {() => string | null} lastMove
   */
  /** @param {BoardOptions} opts */
  function create(opts) {
    const t = tactus.t;
    const { table, status } = opts;
    /** @type {Side | null} */
    let side = null;
    /** @type {Record<string, string>} */
    let pieces = {};
    /** @type {{ from: string, to: string } | null} */
    let last = null;
    /** @type {string | null} */
    let picked = null;
    /** @type {Record<string, { td: HTMLTableCellElement, words: HTMLElement, glyph: HTMLElement }>} */
    const cells = {};

    /** @param {string} text */
    function say(text) {
      const span = document.createElement("span");
      span.textContent = text;
      status.replaceChildren(span);
    }

    // Files and ranks in the order they are seen from `side`.
    const filesSeen = () => side === "black" ? [...FILES].reverse() : [...FILES];
    const ranksSeen = () => side === "black" ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];

    // The squares are in the page in one order whichever side the player
    // has: rank 1 to 8, file a to h, so the row and column a screen reader
    // counts are the rank and the file (e4: row 4, column 5). The file
    // letters and rank numbers are drawn for the eye only (aria-hidden: a
    // screen reader counting them as a row and a column gave every square
    // a wrong number). What the eye sees is turned round by CSS (a mirror
    // of the table and of each cell back): from White's side rank 8 is on
    // top, from Black's file h is on the left. ARIA's row and column
    // indexes cannot say it: Chromium makes them increase whatever the
    // page sets.
    function build() {
      table.replaceChildren();
      table.classList.toggle("from-white", side !== "black");
      table.classList.toggle("from-black", side === "black");
      const coord = (/** @type {string} */ text) => {
        const td = document.createElement("td");
        td.className = "coord";
        td.setAttribute("aria-hidden", "true");
        td.textContent = text;
        return td;
      };
      // The file letters: above the board as seen (White: after rank 8 in
      // the page, mirrored to the top; Black: before rank 1).
      const filesRow = document.createElement("tr");
      filesRow.setAttribute("aria-hidden", "true");
      const filesCells = [coord(""), ...[...FILES].map(coord)];
      if (side === "black") filesCells.push(/** @type {HTMLTableCellElement} */ (filesCells.shift()));
      filesRow.append(...filesCells);
      const body = document.createElement("tbody");
      if (side === "black") body.appendChild(filesRow);
      for (let r = 1; r <= 8; r++) {
        const tr = document.createElement("tr");
        tr.setAttribute("role", "row");
        const row = [];
        for (const f of FILES) {
          const td = document.createElement("td");
          td.setAttribute("role", "gridcell");
          td.dataset.square = f + r;
          td.tabIndex = -1;
          const words = document.createElement("span");
          words.className = "visually-hidden";
          const glyph = document.createElement("span");
          glyph.setAttribute("aria-hidden", "true");
          td.append(words, glyph);
          cells[f + r] = { td, words, glyph };
          row.push(td);
        }
        // The rank number at the left as seen (Black: mirrored, so last).
        if (side === "black") row.push(coord(String(r)));
        else row.unshift(coord(String(r)));
        tr.append(...row);
        body.appendChild(tr);
      }
      if (side !== "black") body.appendChild(filesRow);
      table.append(body);
      // The square in the tab order: the player's king's, else a1/h8.
      const king = Object.keys(pieces).find((sq) => pieces[sq] === (side === "black" ? "k" : "K"));
      cells[king || (side === "black" ? "h8" : "a1")].td.tabIndex = 0;
    }

    // The square and what stands on it, in the page's language, and
    // nothing else (a pick is aria-selected; the last move is `l`).
    /** @param {string} sq */
    function label(sq) {
      const ch = pieces[sq];
      return t("js-board-square", { square: sq, piece: ch ? opts.pieceName(ch) : t("js-empty") });
    }

    function paint() {
      for (const [sq, { td, words, glyph }] of Object.entries(cells)) {
        const ch = pieces[sq];
        const text = label(sq);
        if (words.textContent !== text) words.textContent = text;
        glyph.textContent = ch ? GLYPHS[ch] : "";
        td.classList.toggle("last-move", !!last && (last.from === sq || last.to === sq));
        td.classList.toggle("selected", picked === sq);
        td.setAttribute("aria-selected", picked === sq ? "true" : "false");
      }
    }

    // A new state: the position, the last move (UCI); `plays`: the side
    // this page's player has (the blind side unless a second blind player's
    // link says otherwise).
    /**
     * @param {TableView} state
     * @param {Side} [plays]
     */
    function update(state, plays) {
      const newSide = plays || state.blind;
      pieces = placement(state.fen);
      const uci = state.moves_uci && state.moves_uci[state.moves_uci.length - 1];
      last = uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
      if (newSide !== side) {
        const active = /** @type {HTMLElement | null} */ (document.activeElement);
        const had = active && table.contains(active) ? active.dataset.square : null;
        side = newSide;
        build();
        if (had) focus(had);
      }
      paint();
    }

    /** @param {string} sq */
    function focus(sq) {
      const cell = cells[sq];
      if (!cell) return;
      for (const c of Object.values(cells)) c.td.tabIndex = -1;
      cell.td.tabIndex = 0;
      cell.td.focus();
    }

    /** @returns {string | null} */
    function current() {
      const el = /** @type {HTMLElement | null} */ (document.activeElement);
      const sq = el && el.dataset ? el.dataset.square : undefined;
      return sq && cells[sq] && cells[sq].td === el ? sq : null;
    }

    // The squares in reading order from the player's side.
    function readingOrder() {
      /** @type {string[]} */
      const out = [];
      for (const r of ranksSeen()) for (const f of filesSeen()) out.push(f + r);
      return out;
    }

    /** @param {string} letter @param {boolean} backwards */
    function jumpToPiece(letter, backwards) {
      const here = current();
      if (!here) return;
      const order = readingOrder();
      const at = order.indexOf(here);
      const n = order.length;
      for (let i = 1; i < n; i++) {
        const sq = order[(at + (backwards ? n - i : i)) % n];
        const ch = pieces[sq];
        if (ch && ch.toLowerCase() === letter) return focus(sq);
      }
      const ch = pieces[here];
      say(ch && ch.toLowerCase() === letter ? t("js-board-only-one", { piece: t("js-piece-" + letter) })
        : t("js-board-no-piece", { piece: t("js-piece-" + letter) }));
    }

    /** @param {string} sq @param {number} dFile @param {number} dRank */
    function step(sq, dFile, dRank) {
      // dFile/dRank as seen: right and up; from Black's side both turn round.
      const sign = side === "black" ? -1 : 1;
      const f = FILES.indexOf(sq[0]) + sign * dFile;
      const r = Number(sq[1]) + sign * dRank;
      if (f < 0 || f > 7 || r < 1 || r > 8) return say(t("js-board-edge", { square: sq }));
      focus(FILES[f] + r);
    }

    // Enter/Space: pick the square to move from, then the one to move to.
    /** @param {string} sq */
    function choose(sq) {
      if (!picked) {
        if (!pieces[sq]) return say(t("js-board-pick-empty", { square: sq }));
        picked = sq;
        paint();
        return say(t("js-board-picked-say", { square: sq, piece: opts.pieceName(pieces[sq]) }));
      }
      const from = picked;
      picked = null;
      paint();
      if (from === sq) return say(t("js-board-unpicked"));
      const pawn = (pieces[from] || "").toLowerCase() === "p";
      if (pawn && (sq[1] === "8" || sq[1] === "1")) return opts.promote(from, sq);
      say(t("js-board-sending", { from, to: sq }));
      opts.move(from + "-" + sq);
    }

    function lastMoveSay() {
      const words = opts.lastMove();
      say(words || t("js-no-moves"));
    }

    table.addEventListener("keydown", (e) => {
      const sq = current();
      if (!sq || e.altKey || e.metaKey) return;
      const digit = e.code.match(/^(?:Digit|Numpad)([1-8])$/);
      let handled = true;
      if (e.key === "ArrowUp") step(sq, 0, 1);
      else if (e.key === "ArrowDown") step(sq, 0, -1);
      else if (e.key === "ArrowLeft") step(sq, -1, 0);
      else if (e.key === "ArrowRight") step(sq, 1, 0);
      else if (e.key === "Home") focus(e.ctrlKey ? readingOrder()[0] : readingOrder().filter((s) => s[1] === sq[1])[0]);
      else if (e.key === "End") focus(e.ctrlKey ? readingOrder()[63] : readingOrder().filter((s) => s[1] === sq[1])[7]);
      else if (e.ctrlKey) handled = false;
      else if (digit && !e.shiftKey) focus(sq[0] + digit[1]);
      else if (digit && e.shiftKey) focus(FILES[Number(digit[1]) - 1] + sq[1]);
      else if (/^[kqrbnp]$/i.test(e.key)) jumpToPiece(e.key.toLowerCase(), e.key !== e.key.toLowerCase());
      else if (e.key === "l" || e.key === "L") lastMoveSay();
      else if (e.key === "Enter" || e.key === " ") choose(sq);
      else if (e.key === "Escape") {
        if (picked) { picked = null; paint(); say(t("js-board-unpicked")); } else opts.back();
      } else handled = false;
      if (handled) e.preventDefault();
    });
    // A click (or a tap) on a square is Enter on it.
    table.addEventListener("click", (e) => {
      const td = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("td[data-square]"));
      const sq = td && td.dataset.square;
      if (!sq) return;
      focus(sq);
      choose(sq);
    });

    // Into the board: the square last visited (the one in the tab order).
    function enter() {
      const cell = Object.values(cells).find((c) => c.td.tabIndex === 0);
      if (cell) cell.td.focus();
    }

    return { update, enter, lastMoveSay, say };
  }

  return { create, placement };
})();
