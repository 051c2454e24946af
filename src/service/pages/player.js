// The blind player's page: every announcement into the log (a live region),
// moves and lichess-style commands typed into one box, keyboard only.
// @ts-check
/** @import { ApiFailure, Announcement, Missed, TableView, Side, Voice } from "./api-types.js" */
import { byId, tactus } from "./common.js";
import { tactusBoard } from "./board.js";

(() => {
  const log = byId("log");
  // Answers to this page's own commands, refusals and errors: always read.
  const answers = byId("answers");
  const connection = byId("connection");
  const input = byId("move-input", HTMLInputElement);
  const summary = byId("summary");
  const id = tactus.tableId;
  const t = tactus.t;
  /** @type {TableView | null} */
  let state = null;
  /** @type {{ connected: () => boolean } | null} */
  let live = null;

  // The table answers a refused move of this page's with "illegal move" on
  // every page too (in the table's language); this page says the refusal
  // once, with its reason, in its own language, so that notice is held
  // while this page's move is on its way and dropped if it was refused.
  let moving = 0, refusedAt = -Infinity;
  /** @type {Announcement[]} */
  let heldIllegal = [];
  const ECHO_MS = 3000;

  // Why a move of this page's was refused, in the page's language.
  /** @param {string} text @param {ApiFailure} r */
  function refusal(text, r) {
    const move = text.trim();
    if (r.status === 403) {
      if (state && state.result) return t("js-game-is-over");
      if (state) return t("js-not-your-turn", { side: tactus.sideName(state.turn) });
    }
    if (r.status === 422) {
      const ambiguous = r.error.match(/fits several legal moves: (.*)$/);
      if (ambiguous) return t("js-refused-ambiguous", { move, moves: ambiguous[1] });
      if (/is not a move$/.test(r.error)) return t("js-refused-unreadable", { move });
      if (/is not a legal move here$/.test(r.error)) {
        return t("js-refused-illegal", { move }) + illegalReason(move);
      }
    }
    return t("js-refused", { error: r.error });
  }

  // Why a move that reads is not legal, where the page can tell from the
  // position: the square it goes to holds a piece of the mover's own, or
  // the mover's king is in check (the last move gave check).
  /** @param {string} move */
  function illegalReason(move) {
    if (!state) return "";
    const squares = move.toLowerCase().match(/[a-h][1-8]/g);
    const to = squares && squares[squares.length - 1];
    const ch = to && tactusBoard.placement(state.fen)[to];
    const white = state.turn === "white";
    if (ch && (ch === ch.toUpperCase()) === white) return " " + t("js-refused-own-piece", { square: to, piece: pieceName(ch) });
    const last = state.moves[state.moves.length - 1];
    return last && /[+#]$/.test(last) ? " " + t("js-refused-in-check") : "";
  }

  /** @param {string} text */
  async function sendMove(text) {
    // Never kept for later: a move typed while the server cannot be
    // reached is said to be unsent, and the player types it again.
    if (live && !live.connected()) {
      tactus.say(answers, t("js-not-sent", { move: text.trim() }));
      return false;
    }
    moving += 1;
    const r = await tactus.api("POST", "/api/tables/" + id + "/move", tactus.moveBody({ move: text }));
    moving -= 1;
    if (!r.ok) {
      if (r.status === 422) refusedAt = performance.now();
      heldIllegal = [];
      tactus.say(answers, r.unreachable ? t(r.timeout ? "js-no-answer" : "js-not-sent", { move: text.trim() }) : refusal(text, r));
    } else {
      heldIllegal.splice(0).forEach(announce);
    }
    return r.ok;
  }
  const board = tactusBoard.create({
    table: byId("board", HTMLTableElement),
    status: byId("board-status"),
    pieceName: (ch) => pieceName(ch),
    lastMove: () => lastMoveWords(),
    move: async (text) => { if (!(await sendMove(text))) board.say(t("js-board-refused")); },
    promote: (from, to) => {
      input.value = from + "-" + to + "=";
      input.focus();
      board.say(tactus.t("js-board-promotion"));
    },
    back: () => input.focus(),
  });


  /** @type {number | null} */
  let gameNumber = null;
  // When the state arrived here (the page's own clock).
  let stateAt = 0;

  /** The side this page plays: `?plays=` (a second blind player's or a
   * player's own link), else the table's blind side. @returns {Side} */
  function playsSide() {
    const asked = new URLSearchParams(location.search).get("plays");
    return asked === "white" || asked === "black" ? asked : state ? state.blind : "white";
  }

  // A player's own link (their code, not a table's hex token) follows
  // them: at a new game, and now and then, where they play now is asked,
  // and the page moves to that table and side.
  const ownCode = tactus.ownCode;
  /** @type {{start_rank: number, team?: {number: number, name: string}} | null} */
  let me = null;
  /** @param {boolean} [first] the page has just opened */
  async function follow(first) {
    const code = ownCode();
    if (!code) return;
    const r = await tactus.api("GET", "/api/players/me");
    if (!r.ok) return;
    me = r.data;
    if (r.data.table && (r.data.table !== id || r.data.colour !== playsSide())) {
      location.replace("/table/" + encodeURIComponent(r.data.table) + "/player?plays=" + r.data.colour + "#token=" + code);
    } else if (r.data.table && !first) {
      // A new game here: where, said once (the summary says the rest); in
      // a team event, the match and the board in it too.
      let seat = t("js-seat", { round: r.data.round, board: r.data.board,
        side: tactus.sideName(r.data.colour), name: r.data.opponent.name });
      if (r.data.team && r.data.match) {
        seat += " " + t("js-seat-match", { team: r.data.team.name,
          opponent: r.data.match.opponent.name, board: r.data.match.board });
      }
      tactus.say(answers, seat);
    } else if (!r.data.table && first) {
      tactus.say(answers, t("js-no-seat", { name: r.data.name, why: r.data.why || "" }));
    }
  }
  if (ownCode()) setInterval(() => follow(true), 30000);

  // The standings: the player's own place (with their own link) and the
  // leaders, in one line.
  async function sayStandings() {
    const r = await tactus.api("GET", "/api/standings");
    if (!r.ok) return tactus.say(answers, r.error);
    // A team event's: the teams by rank, the player's own team first.
    if (r.data && r.data.teams) {
      /** @type {Array<{number: number, name: string, match_points: number, rank: number}>} */
      const teams = r.data.teams;
      if (!teams.length) return tactus.say(answers, t("js-no-standings"));
      const mine = me && me.team ? me.team.number : -1;
      const own = teams.find((x) => x.number === mine);
      const leaders = teams.slice(0, 3).map((x) => x.name + " " + x.match_points).join(", ");
      return tactus.say(answers, (own ? t("js-team-standings-you", { team: own.name, rank: own.rank,
        points: own.match_points }) + " " : "") + t("js-team-standings-leaders", { list: leaders }));
    }
    /** @type {Array<{place: number, start_rank: number, name: string, points: string}>} */
    const rows = r.data;
    if (!rows.length) return tactus.say(answers, t("js-no-standings"));
    const rank = me ? me.start_rank : -1;
    const mine = rows.find((x) => x.start_rank === rank);
    const leaders = rows.slice(0, 3).map((x) => x.name + " " + x.points).join(", ");
    tactus.say(answers, (mine ? t("js-standings-you", { place: mine.place, points: mine.points }) + " " : "") +
      t("js-standings-leaders", { list: leaders }));
  }
  /** @param {TableView} s */
  function render(s) {
    // A new game at the table (the next round's): said once, with the
    // round, the player's colour and the opponent.
    const newGame = gameNumber !== null && s.game !== gameNumber;
    gameNumber = s.game;
    state = s;
    stateAt = performance.now();
    // The second blind player's link says `?plays=` their side; their
    // board is the table's opponent board.
    const plays = playsSide();
    if (newGame) follow();
    const tactile = plays === s.blind ? s.board : s.opponent_board;
    const other = plays === "white" ? "black" : "white";
    const name = s[other];
    let text = (name ? t("js-you-play-against", { side: tactus.sideName(plays), name, other: tactus.sideName(other) })
      : t("js-you-play", { side: tactus.sideName(plays) })) + " ";
    text += s.result ? t("js-game-over", { result: s.result.result, reason: tactus.endingText(s.result) })
      : t("js-to-move-number", { side: tactus.sideName(s.turn), number: Math.floor(s.moves.length / 2) + 1 });
    if (s.audio && s.audio.state === "failed") text += " " + t("js-no-sound-at-table");
    if (tactile && !tactile.connected) text += " " + t("js-board-not-connected");
    else if (tactile && !tactile.in_sync) text += " " + t("js-board-differs-yours");
    if (s.round) text = t("js-round-is", { round: s.round }) + " " + text;
    summary.textContent = text;
    board.update(s, plays);
    if (newGame) tactus.say(answers, t("js-new-game") + " " + text);
    checkLowTime();
  }

  // The player's settings (tactus.pref): kept in this browser and, with
  // their own link, on the server, so they follow the player. Each select
  // shows the setting ("" its default) and keeps a change; the server's
  // copy, once read, is shown.
  /** @type {Array<[HTMLSelectElement, string]>} */
  const settingSelects = [];
  /** @param {string} elementId @param {string} name */
  function settingSelect(elementId, name) {
    const select = byId(elementId, HTMLSelectElement);
    select.value = tactus.pref(name);
    if (select.selectedIndex < 0) select.value = "";
    select.addEventListener("change", async () => {
      const refused = await tactus.setPref(name, select.value);
      if (refused) tactus.say(answers, t("js-refused", { error: refused }));
      applySettings();
    });
    settingSelects.push([select, name]);
    return select;
  }
  // The moves as the player chose to read them: standard (Nf3) or long
  // (Ng1-f3).
  const styleSelect = settingSelect("move-style", "move_style");
  if (styleSelect.value === "") styleSelect.value = "standard";
  // What `c` asks the clock for: the table's default, the time left or used.
  const clockSays = settingSelect("clock-says", "clock");
  const lowTime = settingSelect("low-time", "low_time_s");
  const rateSelect = settingSelect("rate", "rate");
  const volumeSelect = settingSelect("volume", "volume");
  // The low-time warning: said once when the player's own running time
  // falls below their limit; again only once it has been above it (an
  // increment, the next period's time) or in the next game.
  let lowWarned = false;
  /** @type {number | null} */
  let lowGame = null;
  function checkLowTime() {
    const limit = Number(lowTime.value) * 1000;
    if (!state || !limit || state.result) return;
    const side = playsSide();
    const c = state.clock;
    if (lowGame !== state.game) { lowGame = state.game; lowWarned = false; }
    let own = side === "white" ? c.white_ms : c.black_ms;
    if (c.running_side === side) own -= performance.now() - stateAt;
    if (own >= limit) { lowWarned = false; return; }
    if (lowWarned || c.running_side !== side || own <= 0) return;
    lowWarned = true;
    tactus.say(answers, t("js-low-time", { limit: tactus.clockText(limit), time: tactus.clockText(own) }));
  }
  setInterval(checkLowTime, 1000);

  tactus.loadPrefs().then((read) => {
    if (!read) return;
    for (const [select, name] of settingSelects) {
      select.value = tactus.pref(name);
      if (select.selectedIndex < 0) select.value = "";
    }
    if (styleSelect.value === "") styleSelect.value = "standard";
    applySettings();
  });
  /** @param {TableView} s */
  function styledMoves(s) {
    if (styleSelect.value !== "long") return s.moves.slice();
    return s.moves.map((san, i) => tactus.longMove(san, (s.moves_uci || [])[i]));
  }
  // The last move with its squares named: "Nf3, from g1 to f3".
  function lastMoveWords() {
    if (!state || !state.moves.length) return null;
    const i = state.moves.length - 1;
    const uci = (state.moves_uci || [])[i];
    const move = styledMoves(state)[i];
    const mover = tactus.sideName(i % 2 === 0 ? "white" : "black");
    return uci ? tactus.t("js-last-move", { side: mover, move, from: uci.slice(0, 2), to: uci.slice(2, 4) })
      : tactus.t("js-last-moves", { moves: move });
  }

  /** @param {string} ch */
  function pieceName(ch) {
    return tactus.t("js-colored-piece", {
      color: tactus.t(ch === ch.toUpperCase() ? "js-white-lower" : "js-black-lower"),
      piece: tactus.t("js-piece-" + ch.toLowerCase()),
    });
  }

  /** @param {string} text */
  async function command(text) {
    const c = text.trim();
    if (c === "h") return tactus.say(answers, byId("help").textContent.replace(/\s+/g, " ").trim());
    if (!state) return tactus.say(answers, t("js-still-loading"));
    const sq = tactusBoard.placement(state.fen);
    // c: the clock as the table tells it; cl / cu: the time left / used
    // (D.2.6.1, D.2.10.4). The table says it as an announcement (in the
    // log, in the table's language); only a failure is answered here.
    if (c === "c" || c === "cl" || c === "cu") {
      const chosen = c === "c" ? clockSays.value : c === "cu" ? "used" : "left";
      const body = chosen ? { time: chosen } : undefined;
      const r = await tactus.api("POST", "/api/tables/" + id + "/clock/say", body);
      if (!r.ok) tactus.say(answers, r.error);
      // Asked again while the last reading was being said: shown, not said.
      else if (r.data.paced && r.data.text) tactus.say(answers, r.data.text);
      return;
    }
    if (c === "r") {
      const r = await tactus.api("POST", "/api/tables/" + id + "/repeat");
      if (!r.ok) tactus.say(answers, r.error);
      else if (r.data.paced && r.data.text) tactus.say(answers, r.data.text);
      else if (!r.data.text) tactus.say(answers, t("js-nothing-to-repeat"));
      return;
    }
    if (c === "l") {
      if (!state.moves.length) return tactus.say(answers, t("js-no-moves"));
      return tactus.say(answers, t("js-last-moves", { moves: tactus.movesText(styledMoves(state)).split(" ").slice(-6).join(" ") }) +
        " " + lastMoveWords());
    }
    if (c === "m") return tactus.say(answers, state.moves.length ? tactus.movesText(styledMoves(state)) : t("js-no-moves"));
    if (c === "b") return board.enter();
    if (c === "d") {
      const r = await tactus.api("POST", "/api/tables/" + id + "/board/differences");
      if (!r.ok) tactus.say(answers, r.error);
      return;
    }
    // A draw offered, accepted or declined, resigning: for the player's
    // own side (the table checks it is theirs).
    const own = { side: playsSide() };
    const act = async (/** @type {string} */ what, /** @type {object | undefined} */ body) => {
      const r = await tactus.api("POST", "/api/tables/" + id + "/" + what, body);
      if (!r.ok) tactus.say(answers, r.error);
    };
    if (c === "o") return act("draw/offer", own);
    if (c === "a") return act("draw/accept", undefined);
    if (c === "n") return act("draw/decline", own);
    if (c === "resign") return act("resign", own);
    if (c === "st") return sayStandings();
    let m = c.match(/^p\s*([kqrbnpKQRBNP])$/);
    if (m) {
      const letter = m[1];
      const found = Object.keys(sq).filter((s) => sq[s] === letter).sort();
      return tactus.say(answers, t("js-pieces-at", { piece: pieceName(letter), squares: found.length ? found.join(", ") : t("js-none") }));
    }
    m = c.match(/^s\s*([a-h1-8])$/);
    if (m) {
      const key = m[1];
      const list = /[a-h]/.test(key) ? [1, 2, 3, 4, 5, 6, 7, 8].map((r) => key + r) : [..."abcdefgh"].map((f) => f + key);
      return tactus.say(answers, list.map((s) => s + " " + (sq[s] ? pieceName(sq[s]) : t("js-empty"))).join(", "));
    }
    await sendMove(c);
  }

  byId("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value;
    input.value = "";
    if (text.trim()) command(text);
  });
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-cmd]"))) {
    b.addEventListener("click", () => command(b.dataset.cmd || ""));
  }
  // The commands that take a piece or a line, as forms.
  byId("pieces-form").addEventListener("submit", (e) => {
    e.preventDefault();
    command("p " + byId("pieces-which", HTMLSelectElement).value);
  });
  byId("line-form").addEventListener("submit", (e) => {
    e.preventDefault();
    command("s " + byId("line-which", HTMLSelectElement).value);
  });
  byId("board-last").addEventListener("click", () => board.lastMoveSay());
  byId("board-enter").addEventListener("click", () => board.enter());

  tactus.tokenForm(answers);
  tactus.notation();
  tactus.api("GET", "/api/tables/" + id).then((r) => {
    if (!r.ok) return tactus.say(answers, r.error);
    render(r.data);
    // Where the game stands, said once as the page opens, in one line (a
    // second line at once would cut the first off): the summary (colour,
    // opponent, whose move) and, joining mid-game, the last thing said.
    // In the answers, which are read even when this device plays the
    // announcements' sound. Said once the window has the focus: a screen
    // reader ignores a live region of a window that is not the active one
    // (Orca dropped it when the page loaded before its window was active),
    // and a page opened behind others says it when the player comes to it.
    /** @type {Array<[string, string]>} */
    const parts = [[summary.textContent || "", ""]];
    if (r.data.last_announcement) parts.push([t("js-last-announcement", { text: r.data.last_announcement }), ""]);
    follow(true);
    const orient = () => tactus.sayParts(answers, parts);
    if (document.hasFocus()) orient();
    else window.addEventListener("focus", orient, { once: true });
  });
  // Sound on this device: the pack's clips fetched once and decoded, each
  // announcement's tokens played with the pack's gap between words.
  /**
   * @typedef {object} Timing
   * @property {number} n
   * @property {number} arrived
   * @property {number} scheduled
   * @property {number} lead_ms
   * @property {number | null} heard
   * @property {number} base_ms
   * @property {number} output_ms
   * @property {AudioContextState} state
   */
  /**
   * @type {{ on: boolean, ctx: AudioContext | null, clips: Record<string, AudioBuffer> | null, gap: number,
   *   playhead: number, played: number, lastStart: number | null, keep: ConstantSourceNode | null, timings: Timing[],
   *   gain: GainNode | null, rate: number, stretched: Record<string, AudioBuffer> }}
   */
  const sound = {
    on: false, ctx: null, clips: null, gap: 0, playhead: 0, played: 0, lastStart: null, keep: null,
    // The player's volume (a gain before the output) and rate: each clip
    // stretched to the rate once, the pitch kept (see `stretch`).
    gain: null, rate: 1, stretched: {},
    // The last few announcements' timings (epoch ms on this browser's
    // monotonic clock), for tests/pages/sound_latency.mjs to tell where the
    // time went: arrival of the event, the first word's start as scheduled,
    // and the browser's own estimate of when that start leaves the device.
    timings: [],
  };
  /** @type {any} */ (window).tactusSound = sound;
  const soundSwitch = byId("sound-here", HTMLInputElement);
  const soundStatus = byId("sound-status");

  /** @param {AudioContext} ctx the context the clips are decoded for */
  async function loadVoice(ctx) {
    // The pack this table speaks with (its own voice, or the venue's).
    const r = await fetch("/api/tables/" + encodeURIComponent(id) + "/voice");
    if (!r.ok) throw new Error(tactus.t("js-sound-no-voice"));
    /** @type {Voice} */
    const voice = await r.json();
    sound.gap = voice.gap_ms / 1000;
    const keys = Object.keys(voice.clips);
    /** @type {Record<string, AudioBuffer>} */
    const clips = {};
    let done = 0;
    // A few downloads at a time; each clip decoded once.
    const queue = keys.slice();
    async function worker() {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const res = await fetch(voice.clips[key]);
        const data = await res.arrayBuffer();
        clips[key] = await ctx.decodeAudioData(data);
        done += 1;
        if (done % 40 === 0) soundStatus.textContent = tactus.t("js-sound-loading-count", { done, total: keys.length });
      }
    }
    await Promise.all([1, 2, 3, 4, 5, 6].map(worker));
    sound.clips = clips;
  }

  /** @param {string[]} tokens @param {number} arrived */
  function play(tokens, arrived) {
    const ctx = sound.ctx;
    if (!sound.on || !sound.clips || !ctx || !tokens || !tokens.length) return;
    // The first word as soon as the context can (a time already past
    // starts at once), or after the words still playing.
    const now = ctx.currentTime;
    let t = Math.max(now, sound.playhead);
    let first = true, start = t;
    for (const key of tokens) {
      const buffer = clipAtRate(ctx, key);
      if (!buffer) continue;
      if (!first) t += sound.gap / sound.rate;
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.connect(sound.gain || ctx.destination);
      src.start(t);
      if (first) { sound.lastStart = performance.now() + (t - ctx.currentTime) * 1000; start = t; }
      t += buffer.duration;
      first = false;
    }
    sound.playhead = t;
    sound.played += 1;
    /** @type {AudioTimestamp} */
    const out = ctx.getOutputTimestamp ? ctx.getOutputTimestamp() : {};
    sound.timings.push({
      n: sound.played,
      arrived: performance.timeOrigin + arrived,
      scheduled: performance.timeOrigin + performance.now(),
      lead_ms: (start - now) * 1000,
      // When the first word leaves the device, by the browser's account.
      heard: out.performanceTime ? performance.timeOrigin + out.performanceTime + (start - (out.contextTime || 0)) * 1000 : null,
      base_ms: ctx.baseLatency * 1000,
      output_ms: (ctx.outputLatency || 0) * 1000,
      state: ctx.state,
    });
    if (sound.timings.length > 50) sound.timings.shift();
  }

  // The clip `key` at the player's rate, stretched once and kept.
  /** @param {AudioContext} ctx @param {string} key */
  function clipAtRate(ctx, key) {
    const clip = sound.clips && sound.clips[key];
    if (!clip || sound.rate === 1) return clip;
    return sound.stretched[key] = sound.stretched[key] || stretch(ctx, clip, sound.rate);
  }

  // A clip said faster or slower with its pitch kept: WSOLA (waveform
  // similarity overlap-add). Frames of 30 ms, Hann-windowed, are laid out
  // every 15 ms; each is taken from near where the rate puts it in the
  // clip, at the offset (within 8 ms) whose waveform best continues the
  // last frame taken, so the voice's periods line up and nothing warbles.
  /** @param {BaseAudioContext} ctx @param {AudioBuffer} clip @param {number} rate @returns {AudioBuffer} */
  function stretch(ctx, clip, rate) {
    const sr = clip.sampleRate, n = 2 * Math.round(sr * 0.015), hop = n / 2, tol = Math.round(sr * 0.008);
    const inLen = clip.length, outLen = Math.max(1, Math.round(inLen / rate));
    const x = clip.getChannelData(0);
    const win = new Float32Array(n);
    for (let i = 0; i < n; i++) win[i] = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / n);
    /** @type {number[]} */
    const starts = [];
    let prev = 0;
    for (let k = 0; k * hop < outLen; k++) {
      const ideal = Math.min(Math.round(k * hop * rate), Math.max(0, inLen - n));
      let best = ideal;
      if (k > 0) {
        const natural = prev + hop;
        let bestScore = -Infinity;
        // The similarity on every fourth sample, every second offset: a
        // clip of a second is stretched in milliseconds.
        for (let d = -tol; d <= tol; d += 2) {
          const at = ideal + d;
          if (at < 0 || at + n > inLen) continue;
          let score = 0;
          for (let i = 0; i < n && natural + i < inLen; i += 4) score += x[natural + i] * x[at + i];
          if (score > bestScore) { bestScore = score; best = at; }
        }
      }
      starts.push(best);
      prev = best;
    }
    const out = ctx.createBuffer(clip.numberOfChannels, outLen, sr);
    for (let c = 0; c < clip.numberOfChannels; c++) {
      const from = clip.getChannelData(c), to = out.getChannelData(c);
      starts.forEach((at, k) => {
        for (let i = 0; i < n; i++) {
          const o = k * hop + i, s = at + i;
          if (o >= outLen) break;
          if (s < inLen) to[o] += from[s] * win[i];
        }
      });
    }
    return out;
  }

  // For the page tests: the stretch measured on the voice's own clips.
  /** @type {any} */ (window).tactusStretch = stretch;

  // The player's volume and rate, as chosen (their settings).
  function applySettings() {
    const rate = Number(rateSelect.value) || 1;
    if (rate !== sound.rate) { sound.rate = rate; sound.stretched = {}; }
    if (sound.gain) sound.gain.gain.value = volumeSelect.value === "" ? 1 : Number(volumeSelect.value);
  }

  // Chromium corks a Web Audio output after about 30 s of silence and
  // then closes it (its stream leaves the sound server), and the sound
  // server may then let the device sleep: the next announcement would wait
  // for the output to be opened and the device woken (a Bluetooth headset
  // can lose the first word).
  // Moves come minutes apart, so while sound is on the output is kept open
  // with a constant far below the quietest step of 16-bit sound (-100 dBFS,
  // 0 once on the device: the recorded sink holds only zeros meanwhile).
  /** @param {AudioContext} ctx */
  function keepOpen(ctx) {
    if (sound.keep) return;
    sound.keep = ctx.createConstantSource();
    sound.keep.offset.value = 1e-5;
    sound.keep.connect(ctx.destination);
    sound.keep.start();
  }

  soundSwitch.addEventListener("change", async () => {
    if (!soundSwitch.checked) {
      sound.on = false;
      if (sound.keep) { sound.keep.stop(); sound.keep = null; }
      // Off is off: the device may sleep again.
      if (sound.ctx) sound.ctx.suspend();
      soundStatus.textContent = tactus.t("js-sound-off");
      return;
    }
    try {
      if (!sound.ctx) {
        const made = sound.ctx = new AudioContext({ latencyHint: "interactive" });
        sound.gain = made.createGain();
        sound.gain.connect(made.destination);
        applySettings();
        // Paused by the browser or the system (a call, another app): said,
        // not left silent.
        made.addEventListener("statechange", () => {
          if (sound.on) soundStatus.textContent = tactus.t(made.state === "running" ? "js-sound-on" : "js-sound-stopped");
        });
      }
      const ctx = sound.ctx;
      await ctx.resume();
      if (!sound.clips) {
        soundStatus.textContent = tactus.t("js-sound-loading");
        await loadVoice(ctx);
      }
      keepOpen(ctx);
      sound.on = soundSwitch.checked;
      soundStatus.textContent = tactus.t(sound.on ? "js-sound-on" : "js-sound-off");
    } catch (e) {
      soundSwitch.checked = false;
      sound.on = false;
      soundStatus.textContent = tactus.t("js-sound-failed", { error: e instanceof Error ? e.message : String(e) });
    }
  });

  // Who speaks the table's announcements: the screen reader (the log is a
  // live region), or, with this device's sound on, the sound alone (the
  // log still shows them, without being read over the sound) unless the
  // player asks for both.
  const readerToo = byId("reader-too", HTMLInputElement);
  const READER_KEY = "tactus-reader-too";
  readerToo.checked = localStorage.getItem(READER_KEY) === "1";
  function readerSpeaks() { return !sound.on || readerToo.checked; }
  function setLogLive() { log.setAttribute("aria-live", readerSpeaks() ? "assertive" : "off"); }
  readerToo.addEventListener("change", () => { localStorage.setItem(READER_KEY, readerToo.checked ? "1" : "0"); setLogLive(); });
  soundSwitch.addEventListener("change", setLogLive);
  new MutationObserver(setLogLive).observe(soundStatus, { childList: true, characterData: true, subtree: true });

  /** @param {Announcement} a */
  function announce(a) {
    play(a.tokens, performance.now());
    tactus.say(log, a.text, tactus.voiceLanguage());
  }

  function clockNow() {
    if (!state || !state.clock) return "";
    return t("js-clock-now", { white: tactus.clockText(state.clock.white_ms), black: tactus.clockText(state.clock.black_ms) });
  }

  // Back after a lost connection: what the table said meanwhile, in order
  // and once, then the clock, as one alert (in the table's language where
  // it is the table's words).
  /** @param {Missed} m */
  function missed(m) {
    /** @type {Array<[string, string]>} */
    const parts = [[t("js-connection-back"), ""]];
    const list = m.announcements.filter((a) => a.kind !== "repeat");
    if (!m.complete) parts.push([t("js-some-missed-lost"), ""]);
    if (list.length) {
      parts.push([t("js-while-away"), ""]);
      for (const a of list) parts.push([a.text.replace(/[.!]?$/, "."), tactus.voiceLanguage()]);
      // With the page's sound speaking, it plays them; the alert then
      // only says the connection is back.
      for (const a of list) play(a.tokens, performance.now());
    } else {
      parts.push([t("js-nothing-missed"), ""]);
    }
    parts.push([clockNow(), ""]);
    connection.replaceChildren();
    /** @type {Array<[string, string]>} */
    const shown = readerSpeaks() ? parts : [[t("js-connection-back"), ""]];
    tactus.sayParts(connection, shown);
    if (!readerSpeaks()) tactus.sayParts(answers, parts.slice(1));
  }

  live = tactus.follow(id, {
    state: render,
    // The sound is scheduled first: the log's update (and the screen
    // reader's work on it) comes after, not before, the first word.
    announcement: (a) => {
      if (a.kind === "illegal" && (moving > 0 || performance.now() - refusedAt < ECHO_MS)) {
        if (moving > 0) heldIllegal.push(a);
        return;
      }
      announce(a);
    },
    missed,
    connection: (up) => {
      if (!up) {
        connection.replaceChildren();
        tactus.say(connection, t("js-connection-lost-alert"));
      }
    },
  });

  // The screen kept awake while the page is open (Screen Wake Lock: only
  // in a secure context, HTTPS or this computer; asked again when the
  // page is shown again, as the browser releases it when hidden).
  const wake = byId("wake", HTMLInputElement);
  const wakeStatus = byId("wake-status");
  /** @type {WakeLockSentinel | null} */
  let wakeLock = null;
  async function keepAwake() {
    if (!wake.checked) {
      if (wakeLock) { await wakeLock.release(); wakeLock = null; }
      wakeStatus.textContent = t("js-wake-off");
      return;
    }
    if (!("wakeLock" in navigator)) { wakeStatus.textContent = t("js-wake-unavailable"); return; }
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeStatus.textContent = t("js-wake-on");
    } catch (e) {
      wakeStatus.textContent = t("js-wake-refused", { error: e instanceof Error ? e.message : String(e) });
    }
  }
  wake.addEventListener("change", keepAwake);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && wake.checked) keepAwake(); });
  keepAwake();
  input.focus();
})();
