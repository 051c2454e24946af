// @ts-check
// The board of the sighted pages (issue 46): the assistant's, the table
// arbiter's, the sighted opponent's and the venue overview's. One SVG
// diagram with the cburnett pieces (pieces.js), turned to either side,
// the last move and a king in check marked, squares marked as differing
// (an outline and a symbol, never colour alone), and, on the assistant's
// page, moves made by pointer or keyboard: a piece, then its square, the
// legal squares shown, a promotion chosen in a dialog.
//
// Accessible: the SVG is an ARIA grid (rows are ranks from the top as
// seen, cells squares), each square named as a screen reader reads it
// ("e4, white knight, last move to here"); everything the diagram shows
// is also written beside it (the last move, check, the differing squares,
// the position piece by piece).
/** @import { Side } from "./api-types.js" */
import { tactus } from "./common.js";
import { PIECES } from "./pieces.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";
const S = 45; // a square, in the pieces' own units

/**
 * What a board shows.
 * @typedef {object} BoardState
 * @property {string} fen the position (FEN, or its placement alone)
 * @property {string} [lastMove] the last move in UCI
 * @property {string} [lastSan] the last move as written (SAN)
 * @property {boolean} [check] the side to move is in check
 * @property {string[]} [marked] squares that differ (outline and symbol)
 * @property {string[]} [pegs] squares where a peg board senses a piece it cannot name
 * @property {string[]} [legal] the legal moves in UCI (a board that moves)
 */

/**
 * @typedef {object} BoardOptions
 * @property {string} label the board's name ("Game", "Tactile board")
 * @property {Side} [side] the side seen from (at the bottom); White by default
 * @property {boolean} [turnable] a button turns it to the other side
 * @property {boolean} [small] a small diagram (the venue overview): no squares in the tab order, no written position
 * @property {(uci: string) => void} [onMove] moves are made on it: called with the UCI of each
 * @property {HTMLElement} [status] where picks and refusals are said (a live region)
 * @property {(side: Side) => void} [onTurn] told when its button turns it (boards shown side by side turn together)
 */

// Defines each piece once per page (<symbol>), each square <use>s it.
function definePieces() {
  if (document.getElementById("sb-pieces")) return;
  const svg = document.createElementNS(SVG, "svg");
  svg.id = "sb-pieces";
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.style.position = "absolute";
  const defs = document.createElementNS(SVG, "defs");
  for (const [letter, inner] of Object.entries(PIECES)) {
    const symbol = document.createElementNS(SVG, "symbol");
    symbol.id = "sb-" + (letter === letter.toUpperCase() ? "w" : "b") + letter.toLowerCase();
    symbol.setAttribute("viewBox", "0 0 45 45");
    symbol.innerHTML = inner;
    defs.appendChild(symbol);
  }
  svg.appendChild(defs);
  document.body.appendChild(svg);
}

/**
 * The squares' pieces from a FEN: { e4: "N", … }.
 * @param {string} fen
 * @returns {Record<string, string>}
 */
export function placement(fen) {
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

/** @param {string} letter a FEN letter @returns {string} "white knight" */
export function pieceName(letter) {
  const white = letter === letter.toUpperCase();
  return tactus.t("js-colored-piece", {
    color: tactus.t(white ? "js-white-lower" : "js-black-lower"),
    piece: tactus.t("js-piece-" + letter.toLowerCase()),
  });
}

/**
 * The position in words: "White: Ke1, Qd1 …; Black: …".
 * @param {Record<string, string>} pieces
 */
export function positionText(pieces) {
  /** @param {boolean} white */
  const list = (white) => {
    const order = "KQRBNP";
    return Object.entries(pieces)
      .filter(([, p]) => (p === p.toUpperCase()) === white)
      .sort(([a, p], [b, q]) => order.indexOf(p.toUpperCase()) - order.indexOf(q.toUpperCase()) || (a < b ? -1 : 1))
      .map(([sq, p]) => (p.toUpperCase() === "P" ? "" : p.toUpperCase()) + sq)
      .join(", ") || tactus.t("js-none");
  };
  return tactus.t("js-sb-position", { white: list(true), black: list(false) });
}

/**
 * A board for the sighted in `container`.
 * @param {HTMLElement} container
 * @param {BoardOptions} options
 */
export function sightedBoard(container, options) {
  definePieces();
  const t = tactus.t;
  /** @type {Side} */
  let side = options.side || "white";
  /** @type {BoardState} */
  let shown = { fen: "8/8/8/8/8/8/8/8" };
  /** @type {Record<string, string>} */
  let pieces = {};
  /** @type {string | null} */
  let picked = null;
  let focusSquare = "e2";
  const moving = !!options.onMove;

  const wrap = document.createElement("div");
  wrap.className = "sboard" + (options.small ? " small" : "") + (moving ? " moving" : "");
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${8 * S} ${8 * S}`);
  svg.setAttribute("role", "grid");
  if (!moving) svg.setAttribute("aria-readonly", "true");
  svg.classList.add("sboard-svg");
  const caption = document.createElement("p");
  caption.className = "sboard-text";
  const words = document.createElement("p");
  words.className = "sboard-position";
  wrap.append(svg);
  if (options.turnable) {
    const turn = document.createElement("button");
    turn.type = "button";
    turn.className = "sboard-turn";
    turn.textContent = "⟲ " + t("js-sb-turn");
    turn.addEventListener("click", () => {
      side = side === "white" ? "black" : "white";
      draw();
      if (options.onTurn) options.onTurn(side);
    });
    wrap.append(turn);
  }
  wrap.append(caption);
  if (!options.small) wrap.append(words);
  container.replaceChildren(wrap);

  /** @type {Record<string, SVGGElement>} */
  const cells = {};
  /** @param {number} col @param {number} row 0..7 as seen, from the top left */
  const squareAt = (col, row) => side === "white" ? FILES[col] + (8 - row) : FILES[7 - col] + (row + 1);

  /** @param {string} square */
  function targets(square) {
    // Each square once (a promotion is four moves to one square).
    return [...new Set((shown.legal || []).filter((m) => m.slice(0, 2) === square).map((m) => m.slice(2, 4)))];
  }

  function kingInCheck() {
    if (!shown.check) return null;
    const turn = (shown.fen.split(" ")[1] || "w") === "w" ? "K" : "k";
    return Object.keys(pieces).find((sq) => pieces[sq] === turn) || null;
  }

  function draw() {
    pieces = placement(shown.fen);
    const last = shown.lastMove ? [shown.lastMove.slice(0, 2), shown.lastMove.slice(2, 4)] : [];
    const checked = kingInCheck();
    const marked = shown.marked || [];
    const reach = picked ? targets(picked) : [];
    svg.setAttribute("aria-label", t("js-sb-seen-from", { label: options.label, side: tactus.sideName(side) }));
    // Drawn afresh: a square that had the focus has it again.
    const focused = svg.contains(document.activeElement);
    svg.replaceChildren();
    for (let row = 0; row < 8; row++) {
      const r = document.createElementNS(SVG, "g");
      r.setAttribute("role", "row");
      for (let col = 0; col < 8; col++) {
        const sq = squareAt(col, row);
        const x = col * S, y = row * S;
        const g = document.createElementNS(SVG, "g");
        g.setAttribute("role", "gridcell");
        g.dataset.square = sq;
        g.classList.add("sq");
        const dark = (FILES.indexOf(sq[0]) + Number(sq[1])) % 2 === 1;
        const bg = rect(x, y, S, S, dark ? "sq-dark" : "sq-light");
        g.appendChild(bg);
        /** @type {string[]} */
        const said = [];
        const p = pieces[sq];
        if (last.includes(sq)) {
          g.appendChild(rect(x, y, S, S, "sq-last"));
          said.push(t(sq === last[0] ? "js-board-last-from" : "js-board-last-to"));
        }
        if (sq === checked) {
          g.appendChild(circle(x + S / 2, y + S / 2, S / 2, "sq-check"));
          said.push(t("js-sb-check"));
        }
        if (sq === picked) { g.appendChild(rect(x + 2, y + 2, S - 4, S - 4, "sq-picked")); said.push(t("js-board-picked")); }
        if (p) {
          const use = document.createElementNS(SVG, "use");
          use.setAttribute("href", "#sb-" + (p === p.toUpperCase() ? "w" : "b") + p.toLowerCase());
          use.setAttribute("x", String(x));
          use.setAttribute("y", String(y));
          use.setAttribute("width", String(S));
          use.setAttribute("height", String(S));
          g.appendChild(use);
        }
        // A peg the board senses, piece unknown: a plain disc.
        const peg = !p && (shown.pegs || []).includes(sq);
        if (peg) g.appendChild(circle(x + S / 2, y + S / 2, 12, "sq-peg"));
        if (reach.includes(sq)) {
          g.appendChild(p ? circle(x + S / 2, y + S / 2, S / 2 - 3, "sq-capture") : circle(x + S / 2, y + S / 2, 7, "sq-dot"));
          said.push(t("js-sb-can-go"));
        }
        if (marked.includes(sq)) {
          g.appendChild(rect(x + 2.5, y + 2.5, S - 5, S - 5, "sq-differs"));
          g.appendChild(circle(x + S - 9, y + 9, 7.5, "sq-badge"));
          // The sign ≠, drawn (a screen reader has "differs" in the name).
          const sign = document.createElementNS(SVG, "path");
          const cx = x + S - 9, cy = y + 9;
          sign.setAttribute("d", `M${cx - 4} ${cy - 2}h8M${cx - 4} ${cy + 2}h8M${cx + 2.5} ${cy - 5}L${cx - 2.5} ${cy + 5}`);
          sign.setAttribute("class", "sq-badge-sign");
          g.appendChild(sign);
          said.push(t("js-square-differs"));
        }
        if (moving) {
          g.appendChild(rect(x + 1.5, y + 1.5, S - 3, S - 3, "sq-focus"));
          g.setAttribute("tabindex", sq === focusSquare ? "0" : "-1");
          if (picked) g.setAttribute("aria-selected", String(sq === picked));
        }
        g.setAttribute("aria-label", [t("js-board-square", { square: sq, piece: p ? pieceName(p) : peg ? t("js-sb-peg") : t("js-empty") }), ...said].join(", "));
        cells[sq] = g;
        r.appendChild(g);
      }
      svg.appendChild(r);
    }
    // Coordinates for the eye, as on a printed diagram, over the squares
    // (a screen reader has them in each square's name).
    const coords = document.createElementNS(SVG, "g");
    coords.setAttribute("aria-hidden", "true");
    coords.setAttribute("class", "sq-coords");
    for (let i = 0; i < 8; i++) {
      coords.appendChild(text(2, i * S + 10, squareAt(0, i)[1], "sq-coord"));
      coords.appendChild(text(i * S + S - 8, 8 * S - 2, squareAt(i, 7)[0], "sq-coord"));
    }
    svg.appendChild(coords);
    if (focused && cells[focusSquare]) cells[focusSquare].focus();
    /** @type {string[]} */
    const lines = [];
    if (shown.lastMove) lines.push(t("js-sb-last", { move: shown.lastSan || "", from: last[0], to: last[1] }));
    if (checked) lines.push(t("js-sb-in-check", { side: tactus.sideName(pieces[checked] === "K" ? "white" : "black") }));
    if (shown.marked) lines.push(marked.length ? t("js-sb-differs", { squares: marked.join(", ") }) : t("js-sb-no-differences"));
    caption.textContent = lines.join(" ");
    caption.hidden = !lines.length;
    const pegs = (shown.pegs || []).filter((sq) => !pieces[sq]);
    words.textContent = positionText(pieces) + (pegs.length ? " " + t("js-sb-pegs", { squares: pegs.join(", ") }) : "");
  }

  /** @param {number} x @param {number} y @param {number} w @param {number} h @param {string} cls */
  function rect(x, y, w, h, cls) {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", String(x)); r.setAttribute("y", String(y));
    r.setAttribute("width", String(w)); r.setAttribute("height", String(h));
    r.setAttribute("class", cls);
    return r;
  }
  /** @param {number} cx @param {number} cy @param {number} radius @param {string} cls */
  function circle(cx, cy, radius, cls) {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", String(cx)); c.setAttribute("cy", String(cy)); c.setAttribute("r", String(radius));
    c.setAttribute("class", cls);
    return c;
  }
  /** @param {number} x @param {number} y @param {string} s @param {string} cls */
  function text(x, y, s, cls) {
    const el = document.createElementNS(SVG, "text");
    el.setAttribute("x", String(x)); el.setAttribute("y", String(y));
    el.setAttribute("class", cls);
    el.setAttribute("aria-hidden", "true");
    el.textContent = s;
    return el;
  }

  /** @param {string} words */
  function say(words) { if (options.status) tactus.say(options.status, words); }

  // A pick, a drop or a move: a square chosen by pointer or keyboard.
  /** @param {string} sq */
  function choose(sq) {
    focusSquare = sq;
    const p = pieces[sq];
    const toMove = (shown.fen.split(" ")[1] || "w") === "w" ? "white" : "black";
    const own = p && (p === p.toUpperCase()) === (toMove === "white");
    if (picked && sq === picked) {
      picked = null;
      say(t("js-board-unpicked"));
    } else if (picked && !own && !targets(picked).includes(sq)) {
      // A square the picked piece cannot go to is a slip of the finger, not
      // the player's illegal move (7.5): said, nothing sent, the piece kept.
      // A real illegal attempt is relayed through the move box.
      say(t("js-sb-cannot-go", { square: sq, piece: pieceName(pieces[picked]), from: picked, squares: targets(picked).join(", ") }));
    } else if (picked && (!own || targets(picked).includes(sq))) {
      const from = picked;
      picked = null;
      const promoting = (shown.legal || []).filter((m) => m.slice(0, 4) === from + sq && m.length === 5);
      if (promoting.length) { draw(); promote(from + sq); return; }
      say(t("js-board-sending", { from, to: sq }));
      send(from + sq);
    } else if (own) {
      if (!(shown.legal || []).length) { say(t("js-sb-no-moves")); picked = null; }
      else {
        const to = targets(sq);
        if (!to.length) { picked = null; say(t("js-sb-no-legal", { square: sq, piece: pieceName(p) })); }
        else { picked = sq; say(t("js-sb-picked", { square: sq, piece: pieceName(p), squares: to.join(", ") })); }
      }
    } else if (p) {
      say(t("js-sb-not-to-move", { square: sq, piece: pieceName(p), side: tactus.sideName(toMove) }));
    } else {
      say(t("js-sb-pick-empty", { square: sq, side: tactus.sideName(toMove) }));
    }
    draw();
  }

  /** @param {string} uci */
  function send(uci) { if (options.onMove) options.onMove(uci); }


  // The promotion's piece, chosen in a dialog (a modal <dialog>: focus
  // stays in it until a piece or Cancel is chosen; Escape cancels).
  /** @param {string} uci */
  function promote(uci) {
    const dialog = document.createElement("dialog");
    dialog.className = "sboard-promotion";
    const h = document.createElement("h2");
    h.id = "sb-promotion-h";
    h.textContent = t("js-sb-promotion", { from: uci.slice(0, 2), to: uci.slice(2, 4) });
    dialog.setAttribute("aria-labelledby", h.id);
    dialog.appendChild(h);
    const white = pieces[uci.slice(0, 2)] === "P";
    for (const letter of ["q", "r", "b", "n"]) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.piece = letter;
      const icon = document.createElementNS(SVG, "svg");
      icon.setAttribute("viewBox", "0 0 45 45");
      icon.setAttribute("aria-hidden", "true");
      icon.setAttribute("class", "sboard-icon");
      const use = document.createElementNS(SVG, "use");
      use.setAttribute("href", "#sb-" + (white ? "w" : "b") + letter);
      icon.appendChild(use);
      b.append(icon, " " + t("js-piece-" + letter));
      b.addEventListener("click", () => { dialog.close(); say(t("js-board-sending", { from: uci.slice(0, 2), to: uci.slice(2, 4) })); send(uci + letter); });
      dialog.appendChild(b);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = t("js-sb-cancel");
    cancel.addEventListener("click", () => dialog.close());
    dialog.appendChild(cancel);
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (!dialog.returnValue && !picked) say(t("js-board-unpicked"));
      const cell = cells[focusSquare];
      if (cell) cell.focus();
    });
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  if (moving) {
    svg.addEventListener("click", (e) => {
      const g = /** @type {Element} */ (e.target).closest("[data-square]");
      if (g instanceof SVGGElement && g.dataset.square) { cells[g.dataset.square].focus(); choose(g.dataset.square); }
    });
    svg.addEventListener("keydown", (e) => {
      const g = /** @type {Element} */ (e.target).closest("[data-square]");
      if (!(g instanceof SVGGElement) || !g.dataset.square) return;
      const sq = g.dataset.square;
      let col = 0, row = 0;
      for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) if (squareAt(c, r) === sq) { col = c; row = r; }
      /** @type {Record<string, [number, number]>} */
      const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (steps[e.key]) {
        const [dc, dr] = steps[e.key];
        const c = Math.min(7, Math.max(0, col + dc)), r = Math.min(7, Math.max(0, row + dr));
        move(squareAt(c, r));
      } else if (e.key === "Home") move(squareAt(0, row));
      else if (e.key === "End") move(squareAt(7, row));
      else if (e.key === "Enter" || e.key === " ") choose(sq);
      else if (e.key === "Escape" && picked) { picked = null; say(t("js-board-unpicked")); draw(); }
      else return;
      e.preventDefault();
    });
  }
  /** @param {string} sq */
  function move(sq) {
    cells[focusSquare].setAttribute("tabindex", "-1");
    focusSquare = sq;
    cells[sq].setAttribute("tabindex", "0");
    cells[sq].focus();
  }

  /** @param {BoardState} next */
  function update(next) {
    const changed = next.fen !== shown.fen;
    shown = next;
    if (changed) picked = null;
    draw();
  }
  /** @param {Side} s */
  function turnTo(s) { side = s; draw(); }
  draw();
  return { update, turnTo, element: wrap, side: () => side };
}

/**
 * A FEN placement from the squares' pieces.
 * @param {Record<string, string>} pieces
 */
export function placementFen(pieces) {
  /** @type {string[]} */
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "", empty = 0;
    for (const f of FILES) {
      const p = pieces[f + rank];
      if (p) { row += (empty || "") + p; empty = 0; } else empty += 1;
    }
    rows.push(row + (empty || ""));
  }
  return rows.join("/");
}

/**
 * What a tactile board shows, as it senses it: its pieces where it tells
 * them (DGT, Millennium); for a peg board, the pieces it should show on
 * the holes that hold a peg, and a plain peg where it holds one it
 * should not.
 * @param {{ fen: string, occupied?: string[], pieces?: string | null }} board
 * @returns {{ fen: string, pegs: string[] }}
 */
export function tactileShows(board) {
  if (board.pieces) return { fen: board.pieces, pegs: [] };
  if (!board.occupied) return { fen: board.fen, pegs: [] };
  const expected = placement(board.fen);
  /** @type {Record<string, string>} */
  const there = {};
  /** @type {string[]} */
  const pegs = [];
  for (const sq of board.occupied) {
    if (expected[sq]) there[sq] = expected[sq]; else pegs.push(sq);
  }
  return { fen: placementFen(there), pegs };
}

/**
 * What a table's state gives a board: the position, the last move, check.
 * @param {{ fen: string, moves: string[], moves_uci: string[], legal_moves?: string[] }} view
 * @returns {BoardState}
 */
export function fromView(view) {
  const san = view.moves.length ? view.moves[view.moves.length - 1] : "";
  return {
    fen: view.fen,
    lastMove: view.moves_uci.length ? view.moves_uci[view.moves_uci.length - 1] : undefined,
    lastSan: san,
    check: /[+#]$/.test(san),
    legal: view.legal_moves,
  };
}
