// Shared by the player, assistant and arbiter pages: the API, the live event
// stream, access tokens and the live regions screen readers read from.
"use strict";
const tactus = (() => {
  const tableId = document.body.dataset.table || "";

  // The page's words (pages/locales/*.ftl, the js- messages), filled in
  // by the server in the page's language; { $name } is filled in here.
  const messages = (() => {
    const el = document.getElementById("messages");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function t(id, args) {
    let text = messages[id] || id;
    for (const [k, v] of Object.entries(args || {})) text = text.split("{$" + k + "}").join(String(v));
    return text;
  }

  // The page's language: the choice made on a page is kept in this browser
  // and asked for with ?lang= (the server otherwise follows Accept-Language).
  const LANG_KEY = "tactus-lang";
  const pageLang = document.documentElement.lang;
  function goToLang(lang) {
    const params = new URLSearchParams(location.search);
    params.set("lang", lang);
    location.replace(location.pathname + "?" + params.toString() + location.hash);
  }
  const storedLang = localStorage.getItem(LANG_KEY);
  if (storedLang && storedLang !== pageLang && !new URLSearchParams(location.search).has("lang")) {
    goToLang(storedLang);
  }
  const langSelect = document.getElementById("page-lang");
  if (langSelect) {
    langSelect.addEventListener("change", () => {
      localStorage.setItem(LANG_KEY, langSelect.value);
      goToLang(langSelect.value);
    });
  }

  // A token arrives once in the link's #token=... fragment (never sent to the
  // server in a URL) and is kept for this tab only.
  function token() {
    const m = location.hash.match(/token=([0-9a-f]+)/);
    const key = "tactus-token-" + (tableId || "venue");
    if (m) {
      sessionStorage.setItem(key, m[1]);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(key) || "";
  }

  function setToken(value) {
    sessionStorage.setItem("tactus-token-" + (tableId || "venue"), value.trim());
  }

  async function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    const t = token();
    if (t) headers["Authorization"] = "Bearer " + t;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      return { ok: false, status: 0, error: t("js-server-unreachable") };
    }
    const type = res.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
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
  function say(region, text, lang) {
    const p = document.createElement("p");
    p.textContent = text;
    if (lang && lang !== pageLang) p.lang = lang;
    region.appendChild(p);
    while (region.childNodes.length > 50) region.removeChild(region.firstChild);
    region.scrollTop = region.scrollHeight;
  }

  // The announcements' language (the table's voice pack), from its state.
  let voiceLang = "";
  function voiceLanguage() { return voiceLang; }

  function follow(id, handlers) {
    if (handlers.state) {
      const render = handlers.state;
      handlers = { ...handlers, state: (s) => { voiceLang = s.voice_lang || voiceLang; render(s); } };
    }
    const source = new EventSource("/api/tables/" + encodeURIComponent(id) + "/events");
    for (const [name, fn] of Object.entries(handlers)) {
      source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
    }
    source.onerror = () => handlers.connection && handlers.connection(false);
    source.onopen = () => handlers.connection && handlers.connection(true);
    return source;
  }

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
  function clockBoard(container) {
    let reading = null, offset = null, turn = "white", timer = null;
    const rows = {};
    const wrap = document.createElement("div");
    wrap.className = "clocks";
    for (const side of ["white", "black"]) {
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
      if (!ms) return;
      for (const side of ["white", "black"]) {
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
  function longMove(san, uci) {
    if (!uci || /^O-O/.test(san)) return san;
    const piece = /^[KQRBN]/.test(san) ? san[0] : "";
    const suffix = (san.match(/[+#]+$/) || [""])[0];
    const promo = uci.length > 4 ? "=" + uci[4].toUpperCase() : "";
    return piece + uci.slice(0, 2) + (san.includes("x") ? "x" : "-") + uci.slice(2, 4) + promo + suffix;
  }

  // "1. e4 e5 2. Nf3" from a SAN list.
  function movesText(moves) {
    const out = [];
    moves.forEach((san, i) => out.push((i % 2 === 0 ? (i / 2 + 1) + ". " : "") + san));
    return out.join(" ");
  }

  // Wires a token form if the page has one (#token-form, #token-input).
  function tokenForm(status) {
    const form = document.getElementById("token-form");
    if (!form) return;
    const input = document.getElementById("token-input");
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
  function notation() {
    const select = document.getElementById("notation");
    if (!select) return "";
    if (!select.dataset.wired) {
      select.dataset.wired = "1";
      select.value = localStorage.getItem("tactus-notation") || "";
      select.addEventListener("change", () => localStorage.setItem("tactus-notation", select.value));
    }
    return select.value;
  }

  // The body of a move (or a claim's declared move) typed on this page.
  function moveBody(body) {
    const lang = notation();
    if (lang) body.lang = lang;
    body.page_lang = pageLang;
    return body;
  }

  const sideName = (side) => t(side === "white" ? "js-white" : "js-black");

  return { tableId, token, api, say, follow, clockText, clockBoard, movesText, longMove, tokenForm, notation, moveBody, t, pageLang, sideName, voiceLanguage };
})();
