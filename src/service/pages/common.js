// @ts-check
// Shared by the player, assistant and arbiter pages: the API, the live event
// stream, access tokens and the live regions screen readers read from. An
// ES module: the pages' scripts import `tactus` from it.
/** @import { Alert, ApiResult, GameResult, TableView, Announcement, Missed, Side } from "./api-types.js" */

/**
 * The element `id` of this page, checked to be a `type` (an
 * `HTMLInputElement` …) when one is given. A script names only its own
 * page's elements: one missing or of another kind is a mistake in the
 * page, thrown at once rather than carried on as `null`.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T}
 */
export function byId(id, type) {
  const el = document.getElementById(id);
  if (!el || (type && !(el instanceof type))) throw new Error(`this page has no #${id}` + (type ? ` of ${type.name}` : ""));
  return /** @type {T} */ (el);
}

export const tactus = (() => {
  const tableId = document.body.dataset.table || "";

  // The page's words (pages/locales/*.ftl, the js- messages), filled in
  // by the server in the page's language; { $name } is filled in here.
  const messages = (() => {
    const el = document.getElementById("messages");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  /**
   * A catalogue message, `{ $name }` filled from `args`.
   * @param {string} id
   * @param {Record<string, string | number>} [args]
   * @returns {string}
   */
  function t(id, args) {
    let text = messages[id] || id;
    for (const [k, v] of Object.entries(args || {})) text = text.split("{$" + k + "}").join(String(v));
    return text;
  }

  // The page's language: the choice made on a page is kept in this browser
  // and asked for with ?lang= (the server otherwise follows Accept-Language).
  const LANG_KEY = "tactus-lang";
  const pageLang = document.documentElement.lang;
  /** @param {string} lang */
  function goToLang(lang) {
    const params = new URLSearchParams(location.search);
    params.set("lang", lang);
    location.replace(location.pathname + "?" + params.toString() + location.hash);
  }
  const storedLang = localStorage.getItem(LANG_KEY);
  if (storedLang && storedLang !== pageLang && !new URLSearchParams(location.search).has("lang")) {
    goToLang(storedLang);
  }
  const langSelect = /** @type {HTMLSelectElement | null} */ (document.getElementById("page-lang"));
  if (langSelect) {
    langSelect.addEventListener("change", async () => {
      await setPref("lang", langSelect.value);
      goToLang(langSelect.value);
    });
  }

  // A token arrives once in the link's #token=... fragment (never sent to the
  // server in a URL) and is kept for this tab only.
  function token() {
    // A table's token (hex) or a player's own code (Crockford's base 32,
    // any case, dashes as printed on the card).
    const m = location.hash.match(/token=([0-9A-Za-z-]+)/);
    const key = "tactus-token-" + (tableId || "venue");
    if (m) {
      sessionStorage.setItem(key, m[1]);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(key) || "";
  }

  /** @param {string} value */
  function setToken(value) {
    sessionStorage.setItem("tactus-token-" + (tableId || "venue"), value.trim());
  }

  // A listed player's own code (Crockford's base 32, 16 symbols, any case,
  // dashes as printed on their card), not a table's hex token.
  function ownCode() {
    const tok = token();
    return /^[0-9A-Za-z]{16}$/.test(tok) || (tok.includes("-") && tok.length < 24) ? tok : "";
  }

  // The settings a player chooses (page language, move style, piece
  // letters, clock left/used, the low-time warning, their device's rate
  // and volume): kept in this browser, and, with a player's own code, on
  // the server too, so they follow the player to every table and device
  // (GET/PUT /api/players/me/settings). The server's copy wins on arrival.
  /** @type {Record<string, string>} */
  const PREFS = {
    lang: LANG_KEY, move_style: "tactus-move-style", notation: "tactus-notation", clock: "tactus-clock",
    low_time_s: "tactus-low-time", rate: "tactus-rate", volume: "tactus-volume",
  };
  const NUMERIC = ["low_time_s", "rate", "volume"];
  /** @param {string} name @returns {string} */
  function pref(name) { return localStorage.getItem(PREFS[name]) || ""; }
  function prefsBody() {
    /** @type {Record<string, string | number>} */
    const body = {};
    for (const name of Object.keys(PREFS)) {
      const v = pref(name);
      if (v) body[name] = NUMERIC.includes(name) ? Number(v) : v;
    }
    return body;
  }
  /**
   * Keeps a setting ("" for the default) here and, for a player, on the
   * server; resolves with the server's refusal, if any.
   * @param {string} name @param {string} value @returns {Promise<string | null>}
   */
  async function setPref(name, value) {
    chosenHere.add(name);
    if (value) localStorage.setItem(PREFS[name], value);
    else localStorage.removeItem(PREFS[name]);
    if (!ownCode()) return null;
    // The whole set is sent, so the server's copy must be known first (a
    // setting chosen on another device is kept), and the requests go one
    // at a time, each with the settings as they stand when it leaves: two
    // changes made quickly could otherwise reach the server in the other
    // order, and the older set would win.
    const mine = putting.then(async () => {
      await loadPrefs();
      return api("PUT", "/api/players/me/settings", prefsBody());
    });
    putting = mine.catch(() => null);
    const r = await mine;
    return r.ok ? null : r.error;
  }
  /** @type {Promise<unknown>} */
  let putting = Promise.resolve(null);
  // The settings changed on this page since it opened: the server's copy,
  // arriving later, does not undo them.
  /** @type {Set<string>} */
  const chosenHere = new Set();
  /** @type {Promise<boolean> | null} */
  let loaded = null;
  // The server's settings for this player, once per page: true when they
  // were read (and the page was moved to the player's language if need be).
  function loadPrefs() {
    loaded = loaded || (async () => {
      if (!ownCode()) return false;
      const r = await api("GET", "/api/players/me/settings");
      if (!r.ok) return false;
      for (const name of Object.keys(PREFS)) {
        if (chosenHere.has(name)) continue;
        const v = r.data[name];
        if (v === undefined || v === null) localStorage.removeItem(PREFS[name]);
        else localStorage.setItem(PREFS[name], String(v));
      }
      const lang = r.data.lang;
      if (lang && lang !== pageLang && !new URLSearchParams(location.search).has("lang")) goToLang(lang);
      return true;
    })();
    return loaded;
  }

  // A request that gets no answer in this time is given up (its move, if
  // one, is said to be unsent): a phone whose Wi-Fi is gone must not hold
  // a move that a proxy or the network delivers minutes later.
  const API_TIMEOUT_MS = 10000;
  /**
   * One request to the API, with this tab's token.
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body] sent as JSON
   * @returns {Promise<ApiResult<any>>}
   */
  async function api(method, path, body) {
    /** @type {Record<string, string>} */
    const headers = { "Accept": "application/json" };
    const tok = token();
    if (tok) headers["Authorization"] = "Bearer " + tok;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), API_TIMEOUT_MS);
    let res, data;
    try {
      res = await fetch(path, { method, headers, signal: abort.signal, body: body === undefined ? undefined : JSON.stringify(body) });
      const type = res.headers.get("Content-Type") || "";
      data = type.includes("json") ? await res.json() : await res.text();
    } catch (e) {
      // No answer (refused, or given up after the timeout: the request
      // may still have arrived).
      return { ok: false, status: 0, unreachable: true, timeout: e instanceof DOMException && e.name === "AbortError", error: t("js-server-unreachable") };
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) {
      const msg = (data && data.error) || (typeof data === "string" ? data : t("js-request-failed"));
      return { ok: false, status: res.status, error: msg, data };
    }
    if (data && data.voice_lang) voiceLang = data.voice_lang;
    return { ok: true, status: res.status, data };
  }

  // Appends a line to a live region: a new node each time, so an identical
  // announcement is read again (nothing is deduplicated).
  // `lang`: the language of the text when it is not the page's (an
  // announcement in the table's voice), so a screen reader switches voice.
  /**
   * @param {HTMLElement} region
   * @param {string} text
   * @param {string} [lang]
   */
  function say(region, text, lang) {
    sayParts(region, [[text, lang || ""]]);
  }
  // One line of several parts, each in its own language (a page's words
  // around the table's announcements): [[text, lang], …].
  /**
   * @param {HTMLElement} region
   * @param {Array<[string, string]>} parts
   */
  function sayParts(region, parts) {
    const p = document.createElement("p");
    parts.forEach(([text, lang], i) => {
      if (i) p.append(" ");
      if (lang && lang !== pageLang) {
        const span = document.createElement("span");
        span.lang = lang;
        span.textContent = text;
        p.append(span);
      } else p.append(text);
    });
    region.appendChild(p);
    while (region.firstChild && region.childNodes.length > 50) region.removeChild(region.firstChild);
    region.scrollTop = region.scrollHeight;
  }

  // The announcements' language (the table's voice pack), from its state.
  let voiceLang = "";
  function voiceLanguage() { return voiceLang; }

  // The live stream, kept open by the page itself: on any error (the
  // server gone, a proxy or the Wi-Fi dropping the connection, or nothing
  // heard for longer than the server's keep-alive) the stream is closed,
  // `connection(false)` told once, and a new one opened after 1, 2, 4, 5,
  // 5 … s with `?since=` the last announcement number seen, so the server
  // sends what was missed (`missed`) after the state; `connection(true)`
  // is told once it is open again. Announcements are numbered: one seen
  // before is never given twice.
  const SILENCE_MS = 40000;
  /**
   * @typedef {object} Handlers
   * @property {(s: TableView) => void} [state]
   * @property {(a: Announcement) => void} [announcement]
   * @property {(m: Missed) => void} [missed]
   * @property {(up: boolean) => void} [connection]
   */
  /**
   * @param {string} id the table
   * @param {Handlers} handlers
   */
  function follow(id, handlers) {
    if (handlers.state) {
      const render = handlers.state;
      handlers = { ...handlers, state: (s) => { voiceLang = s.voice_lang || voiceLang; render(s); } };
    }
    /** @type {number | null} */
    let lastSeq = null;
    /** @type {EventSource | null} */
    let source = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let retryTimer;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let watchdog;
    /** @type {boolean | null} */
    let up = null;
    let delay = 1000;
    /** @param {boolean} now */
    const tell = (now) => {
      if (up === now) return;
      up = now;
      if (handlers.connection) handlers.connection(now);
    };
    function heard() {
      clearTimeout(watchdog);
      watchdog = setTimeout(lost, SILENCE_MS);
    }
    function lost() {
      clearTimeout(watchdog);
      if (source) { source.close(); source = null; }
      tell(false);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    }
    async function open() {
      let url = "/api/tables/" + encodeURIComponent(id) + "/events" + (lastSeq !== null ? "?since=" + lastSeq : "");
      // A page with a token asks for a ticket first (the token in a header,
      // never in a URL): its stream is then not held back by the caps on
      // streams without one, which a flood of strangers may have filled.
      const tok = token();
      if (tok) {
        try {
          const r = await fetch("/api/tables/" + encodeURIComponent(id) + "/stream-ticket", {
            method: "POST", headers: { "Authorization": "Bearer " + tok }, cache: "no-store",
          });
          if (r.ok) url += (url.includes("?") ? "&" : "?") + "ticket=" + encodeURIComponent((await r.json()).ticket);
        } catch (e) { /* no ticket: the stream is opened without one */ }
      }
      const es = source = new EventSource(url);
      /** @param {string} name @param {(data: any) => void} fn */
      const on = (name, fn) => es.addEventListener(name, (e) => { if (es === source) { heard(); fn(JSON.parse(e.data)); } });
      on("state", (s) => handlers.state && handlers.state(s));
      on("alive", () => {});
      on("at", (a) => { lastSeq = a.seq; });
      on("announcement", (a) => {
        if (lastSeq !== null && a.seq <= lastSeq) return;
        lastSeq = a.seq;
        if (handlers.announcement) handlers.announcement(a);
      });
      on("missed", (/** @type {Missed} */ m) => {
        // Incomplete: some were forgotten, or the server restarted and
        // numbers began again; the newest it sent is where this page is.
        const newest = m.announcements.length ? m.announcements[m.announcements.length - 1].seq : 0;
        lastSeq = m.complete ? Math.max(lastSeq || 0, newest) : newest;
        if (handlers.missed) handlers.missed(m);
      });
      es.onopen = () => { if (es === source) { delay = 1000; heard(); tell(true); } };
      es.onerror = () => { if (es === source) lost(); };
    }
    // The system says the network is gone (a phone leaving the Wi-Fi):
    // told at once, not at the next failed read.
    window.addEventListener("offline", () => { if (source) lost(); });
    window.addEventListener("online", () => { if (!source) { clearTimeout(retryTimer); delay = 1000; open(); } });
    open();
    return { connected: () => up === true };
  }

  /** @param {number} ms */
  function clockText(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
  }

  // Clocks that tick between events. A state carries both clocks as read
  // at the table's time `as_of_ms` and the side whose time runs; the page
  // counts that side down from there. The table's time and this browser's
  // are not the same clock: the offset between them is measured on every
  // state (its arrival time here minus `as_of_ms`) and the smallest kept,
  // the one least delayed on the way; only the browser's monotonic time
  // (performance.now) is used, so a change of the computer's date moves
  // nothing. Every state replaces the reading: the clocks are corrected on
  // every event. A reconnection starts the measure afresh (a restarted
  // server may have another timebase).
  const LOW_MS = 60 * 1000;
  function monotonicNow() { return performance.timeOrigin + performance.now(); }
  /** @param {HTMLElement} container */
  function clockBoard(container) {
    /** @type {TableView["clock"] | null} */
    let reading = null;
    /** @type {number | null} */
    let offset = null;
    /** @type {Side} */
    let turn = "white";
    /** @type {ReturnType<typeof setInterval> | null} */
    let timer = null;
    /** @type {Record<string, { p: HTMLElement, time: HTMLElement, marks: HTMLElement }>} */
    const rows = {};
    const wrap = document.createElement("div");
    wrap.className = "clocks";
    for (const side of /** @type {Side[]} */ (["white", "black"])) {
      const p = document.createElement("p");
      p.className = "clock";
      p.dataset.side = side;
      const name = document.createElement("span");
      name.className = "clock-side";
      name.textContent = sideName(side);
      const time = document.createElement("span");
      time.className = "clock-time";
      // role=timer: a clock, not announced at every tick (aria-live off).
      time.setAttribute("role", "timer");
      time.setAttribute("aria-label", t("js-clock-of", { side: sideName(side) }));
      const marks = document.createElement("span");
      marks.className = "clock-marks";
      p.append(name, " ", time, " ", marks);
      wrap.appendChild(p);
      rows[side] = { p, time, marks };
    }
    container.replaceChildren(wrap);

    /** @returns {{ white: number, black: number } | null} */
    function current() {
      if (!reading) return null;
      const ms = { white: reading.white_ms, black: reading.black_ms };
      if (reading.running_side && offset !== null) {
        const elapsed = Math.max(0, monotonicNow() - offset - reading.as_of_ms);
        ms[reading.running_side] = Math.max(0, ms[reading.running_side] - elapsed);
      }
      return ms;
    }
    function draw() {
      const ms = current();
      if (!ms || !reading) return;
      for (const side of /** @type {Side[]} */ (["white", "black"])) {
        const row = rows[side];
        const text = clockText(ms[side]);
        if (row.time.textContent !== text) row.time.textContent = text;
        const marks = [];
        const moving = turn === side && !finished;
        if (moving) marks.push("▶ " + t("js-clock-to-move"));
        if (reading.running_side === side) marks.push(t("js-running"));
        if (ms[side] <= 0) marks.push("⚑ " + t("js-clock-time-up"));
        else if (ms[side] < LOW_MS) marks.push("⚠ " + t("js-clock-low"));
        const m = marks.join(", ");
        if (row.marks.textContent !== m) row.marks.textContent = m;
        row.p.classList.toggle("to-move", moving);
        row.p.classList.toggle("low", ms[side] < LOW_MS);
      }
    }
    let finished = false;
    /** @param {TableView} state */
    function update(state) {
      const c = state.clock;
      const sample = monotonicNow() - c.as_of_ms;
      if (offset === null || sample < offset) offset = sample;
      reading = c;
      turn = state.turn;
      finished = !!state.result;
      draw();
      if (!timer) timer = setInterval(draw, 200);
    }
    function reconnected() { offset = null; }
    return { update, reconnected, current };
  }

  // A move in long notation (`Ng1-f3`, `e4xd5`, `e7-e8=Q+`) from its SAN
  // and UCI: the piece as SAN writes it, then both squares. Castling stays
  // O-O / O-O-O (a Chess960 castling's UCI names the rook's square).
  /** @param {string} san @param {string | undefined} uci */
  function longMove(san, uci) {
    if (!uci || /^O-O/.test(san)) return san;
    const piece = /^[KQRBN]/.test(san) ? san[0] : "";
    const suffix = (san.match(/[+#]+$/) || [""])[0];
    const promo = uci.length > 4 ? "=" + uci[4].toUpperCase() : "";
    return piece + uci.slice(0, 2) + (san.includes("x") ? "x" : "-") + uci.slice(2, 4) + promo + suffix;
  }

  // "1. e4 e5 2. Nf3" from a SAN list.
  /** @param {string[]} moves */
  function movesText(moves) {
    /** @type {string[]} */
    const out = [];
    moves.forEach((san, i) => out.push((i % 2 === 0 ? (i / 2 + 1) + ". " : "") + san));
    return out.join(" ");
  }

  // Wires a token form if the page has one (#token-form, #token-input).
  /** @param {HTMLElement} [status] where "saved" is said */
  function tokenForm(status) {
    const form = document.getElementById("token-form");
    if (!form) return;
    const input = /** @type {HTMLInputElement} */ (document.getElementById("token-input"));
    const show = () => { form.hidden = !!token(); };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      setToken(input.value);
      input.value = "";
      show();
      if (status) say(status, t("js-token-saved"));
    });
    show();
  }

  // The piece letters moves are typed in (a select #notation), kept across
  // visits. "" is the table's setting (`notation`, the server applies it);
  // under "auto" an entry that reads as different moves in several
  // languages (R: a rook in English, a king in Spanish) is settled by the
  // page's language, sent along as `page_lang`.
  /** @returns {string} */
  function notation() {
    const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("notation"));
    if (!select) return "";
    if (!select.dataset.wired) {
      select.dataset.wired = "1";
      select.value = pref("notation");
      select.addEventListener("change", () => setPref("notation", select.value));
      loadPrefs().then((read) => { if (read) select.value = pref("notation"); });
    }
    return select.value;
  }

  // The body of a move (or a claim's declared move) typed on this page.
  /**
   * @param {Record<string, unknown>} body
   * @returns {Record<string, unknown>}
   */
  function moveBody(body) {
    const lang = notation();
    if (lang) body.lang = lang;
    body.page_lang = pageLang;
    return body;
  }

  /** @param {Side} side */
  const sideName = (side) => t(side === "white" ? "js-white" : "js-black");

  // The table sends what it means, not English words, for the pages to
  // say in their own language: an alert as a catalogue key and its
  // arguments, a result by how the game ended.

  /**
   * An alert in the page's language (`js-alert-{key}`); a `side` argument
   * is named in the page's language too.
   * @param {Alert} alert
   */
  function alertText(alert) {
    /** @type {Record<string, string>} */
    const args = { ...alert.args };
    if (args.side === "white" || args.side === "black") args.side = sideName(args.side);
    return t("js-alert-" + alert.key, args);
  }

  /**
   * Why a game ended, in the page's language: the ending's words, and what
   * the rules add (a claim's move written, not played; the second
   * completed illegal move). The arbiter's reason is their own words,
   * shown as they were written.
   * @param {GameResult} result
   */
  function endingText(result) {
    const ending = t("js-ending-" + result.ending);
    // `reason` is the ending's English words (`Ending::words`, which hold
    // no comma), then ", " and the rules' detail; the arbiter's own
    // reason stands alone, the rules' 7.5.5 ending has its own words.
    // These forms are the rules' (src/rules/game.rs): a new one shows in
    // English until it has its message here.
    if (result.ending === "arbiter") {
      if (result.reason === "arbiter's decision") return ending;
      const second = result.reason.match(/^second completed illegal move by (white|black) \(7\.5\.5\)$/);
      if (second) return t("js-ending-second-illegal", { side: sideName(/** @type {Side} */ (second[1])) });
      return result.reason;
    }
    const comma = result.reason.indexOf(", ");
    if (comma < 0) return ending;
    const detail = result.reason.slice(comma + 2);
    const written = detail.match(/^claimed with (\S+) written, not played$/);
    return t("js-ending-detail", { ending, detail: written ? t("js-ending-claimed-written", { move: written[1] }) : detail });
  }

  return { tableId, token, ownCode, pref, setPref, loadPrefs, api, say, sayParts, follow, clockText, clockBoard, movesText, longMove, tokenForm, notation, moveBody, t, pageLang, sideName, voiceLanguage, alertText, endingText };
})();
