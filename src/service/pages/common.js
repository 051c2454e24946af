// Shared by the player, assistant and arbiter pages: the API, the live event
// stream, access tokens and the live regions screen readers read from.
"use strict";
const tactus = (() => {
  const tableId = document.body.dataset.table || "";

  // A token arrives once in the link's #token=... fragment (never sent to the
  // server in a URL) and is kept for this tab only.
  function token() {
    const m = location.hash.match(/token=([0-9a-f]+)/);
    const key = "tactus-token-" + (tableId || "venue");
    if (m) {
      sessionStorage.setItem(key, m[1]);
      history.replaceState(null, "", location.pathname);
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
      return { ok: false, status: 0, error: "The server cannot be reached." };
    }
    const type = res.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
    if (!res.ok) {
      const msg = (data && data.error) || (typeof data === "string" ? data : "Request failed");
      return { ok: false, status: res.status, error: msg, data };
    }
    return { ok: true, status: res.status, data };
  }

  // Appends a line to a live region: a new node each time, so an identical
  // announcement is read again (nothing is deduplicated).
  function say(region, text) {
    const p = document.createElement("p");
    p.textContent = text;
    region.appendChild(p);
    while (region.childNodes.length > 50) region.removeChild(region.firstChild);
    region.scrollTop = region.scrollHeight;
  }

  function follow(id, handlers) {
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
      if (status) say(status, "Token saved for this tab.");
    });
    show();
  }

  // The piece letters moves are typed in (a select #notation), kept across
  // visits: with "Any language", R could be a rook (English) or a king
  // (Spanish, French) and such a move is refused as ambiguous.
  function notation() {
    const select = document.getElementById("notation");
    if (!select) return "auto";
    if (!select.dataset.wired) {
      select.dataset.wired = "1";
      select.value = localStorage.getItem("tactus-notation") || "auto";
      select.addEventListener("change", () => localStorage.setItem("tactus-notation", select.value));
    }
    return select.value;
  }

  return { tableId, token, api, say, follow, clockText, movesText, tokenForm, notation };
})();
