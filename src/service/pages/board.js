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
"use strict";
const tactusBoard = (() => {
  const FILES = "abcdefgh";
  const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

  // FEN placement → { "e4": "P", … }.
  function placement(fen) {
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
  function create(opts) {
    const t = tactus.t;
    const { table, status } = opts;
    let side = null, pieces = {}, last = null, picked = null;
    const cells = {};

    function say(text) {
      const span = document.createElement("span");
      span.textContent = text;
      status.replaceChildren(span);
    }

    // Files and ranks in the order they are seen from `side`.
    const filesSeen = () => side === "black" ? [...FILES].reverse() : [...FILES];
    const ranksSeen = () => side === "black" ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];

    function build() {
      table.replaceChildren();
      const head = document.createElement("thead");
      const hr = document.createElement("tr");
      hr.setAttribute("role", "row");
      const corner = document.createElement("th");
      corner.setAttribute("role", "columnheader");
      const cornerText = document.createElement("span");
      cornerText.className = "visually-hidden";
      cornerText.textContent = t("js-board-rank");
      corner.appendChild(cornerText);
      hr.appendChild(corner);
      for (const f of filesSeen()) {
        const th = document.createElement("th");
        th.setAttribute("role", "columnheader");
        th.scope = "col";
        th.textContent = f;
        hr.appendChild(th);
      }
      head.appendChild(hr);
      const body = document.createElement("tbody");
      for (const r of ranksSeen()) {
        const tr = document.createElement("tr");
        tr.setAttribute("role", "row");
        const th = document.createElement("th");
        th.setAttribute("role", "rowheader");
        th.scope = "row";
        th.textContent = String(r);
        tr.appendChild(th);
        for (const f of filesSeen()) {
          const td = document.createElement("td");
          td.setAttribute("role", "gridcell");
          td.dataset.square = f + r;
          td.tabIndex = -1;
          cells[f + r] = td;
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
      table.append(head, body);
      // The square in the tab order: the player's king's, else a1/h8.
      const king = Object.keys(pieces).find((sq) => pieces[sq] === (side === "black" ? "k" : "K"));
      cells[king || (side === "black" ? "h8" : "a1")].tabIndex = 0;
    }

    function label(sq) {
      const ch = pieces[sq];
      let text = t("js-board-square", { square: sq, piece: ch ? opts.pieceName(ch) : t("js-empty") });
      if (last && last.from === sq) text += ", " + t("js-board-last-from");
      if (last && last.to === sq) text += ", " + t("js-board-last-to");
      if (picked === sq) text += ", " + t("js-board-picked");
      return text;
    }

    function paint() {
      for (const [sq, td] of Object.entries(cells)) {
        const ch = pieces[sq];
        td.textContent = ch ? GLYPHS[ch] : "";
        td.setAttribute("aria-label", label(sq));
        td.classList.toggle("last-move", !!last && (last.from === sq || last.to === sq));
        td.classList.toggle("selected", picked === sq);
        td.setAttribute("aria-selected", picked === sq ? "true" : "false");
      }
    }

    // A new state: the position, the last move (UCI); `plays`: the side
    // this page's player has (the blind side unless a second blind player's
    // link says otherwise).
    function update(state, plays) {
      const newSide = plays || state.blind;
      pieces = placement(state.fen);
      const uci = state.moves_uci && state.moves_uci[state.moves_uci.length - 1];
      last = uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
      if (newSide !== side) {
        const had = table.contains(document.activeElement) ? document.activeElement.dataset.square : null;
        side = newSide;
        build();
        if (had) focus(had);
      }
      paint();
    }

    function focus(sq) {
      const td = cells[sq];
      if (!td) return;
      for (const c of Object.values(cells)) c.tabIndex = -1;
      td.tabIndex = 0;
      td.focus();
    }

    function current() {
      const el = document.activeElement;
      return el && el.dataset && cells[el.dataset.square] === el ? el.dataset.square : null;
    }

    // The squares in reading order from the player's side.
    function readingOrder() {
      const out = [];
      for (const r of ranksSeen()) for (const f of filesSeen()) out.push(f + r);
      return out;
    }

    function jumpToPiece(letter, backwards) {
      const here = current();
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

    function step(sq, dFile, dRank) {
      // dFile/dRank as seen: right and up; from Black's side both turn round.
      const sign = side === "black" ? -1 : 1;
      const f = FILES.indexOf(sq[0]) + sign * dFile;
      const r = Number(sq[1]) + sign * dRank;
      if (f < 0 || f > 7 || r < 1 || r > 8) return say(t("js-board-edge", { square: sq }));
      focus(FILES[f] + r);
    }

    // Enter/Space: pick the square to move from, then the one to move to.
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
      else if (e.key === "Home") focus(e.ctrlKey ? readingOrder()[0] : readingOrder().find((s) => s[1] === sq[1]));
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
      const td = e.target.closest("td[data-square]");
      if (!td) return;
      focus(td.dataset.square);
      choose(td.dataset.square);
    });

    // Into the board: the square last visited (the one in the tab order).
    function enter() {
      const td = Object.values(cells).find((c) => c.tabIndex === 0);
      if (td) td.focus();
    }

    return { update, enter, lastMoveSay, say };
  }

  return { create, placement };
})();
