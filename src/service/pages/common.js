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

  return { tableId, token, api, say, follow, clockText, movesText, tokenForm, notation, moveBody, t, pageLang, sideName, voiceLanguage };
})();
