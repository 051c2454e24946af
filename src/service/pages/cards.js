// The table cards: the venue arbiter's token (from the link's #token=
// fragment, kept for this tab only, never sent in a URL) fetches every card
// from /api/cards; each card shows its table, its person, its link as a QR
// code and as text. Self-contained: it does not need common.js.
(function () {
  "use strict";
  const messages = JSON.parse(document.getElementById("messages").textContent);
  function t(id, args) {
    let s = messages[id] || id;
    for (const [k, v] of Object.entries(args || {})) s = s.split("{$" + k + "}").join(String(v));
    return s;
  }
  const status = document.getElementById("cards-status");
  const list = document.getElementById("cards");

  function venueToken() {
    const m = location.hash.match(/token=([0-9a-f]+)/);
    if (m) {
      sessionStorage.setItem("tactus-token-venue", m[1]);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem("tactus-token-venue") || "";
  }

  function card(c) {
    const li = document.createElement("li");
    li.className = "card";
    li.dataset.table = c.table;
    li.dataset.role = c.role;
    const h = document.createElement("h2");
    h.textContent = c.title;
    const role = document.createElement("p");
    role.className = "role";
    role.textContent = c.note ? c.role_name + ", " + c.note : c.role_name;
    // The code repeats the link below it: hidden from screen readers.
    const qr = document.createElement("div");
    qr.className = "qr";
    qr.setAttribute("aria-hidden", "true");
    qr.innerHTML = c.svg; // our own SVG, made by the server from the link
    const link = document.createElement("p");
    link.className = "link";
    link.textContent = c.link;
    li.append(h, role, qr, link);
    return li;
  }

  async function load() {
    const token = venueToken();
    if (!token) {
      status.textContent = t("js-cards-need-token");
      return;
    }
    const lang = new URLSearchParams(location.search).get("lang") || document.documentElement.lang;
    let res;
    try {
      res = await fetch("/api/cards?lang=" + encodeURIComponent(lang), {
        headers: { "Accept": "application/json", "Authorization": "Bearer " + token },
        cache: "no-store",
      });
    } catch (e) {
      status.textContent = t("js-cards-failed", { error: String(e) });
      return;
    }
    if (res.status === 401 || res.status === 403) {
      status.textContent = t("js-cards-need-token");
      return;
    }
    if (!res.ok) {
      status.textContent = t("js-cards-failed", { error: res.status + " " + res.statusText });
      return;
    }
    const body = await res.json();
    list.replaceChildren(...body.cards.map(card));
    // Players whose codes changed at this start: their cards to print again.
    const changes = body.code_changes || [];
    const section = document.getElementById("code-changes");
    document.getElementById("code-changes-list").replaceChildren(...changes.map((c) => {
      const li = document.createElement("li");
      li.textContent = c.text;
      return li;
    }));
    section.hidden = changes.length === 0;
    status.textContent = t("js-cards-ready", { count: body.cards.length });
  }

  document.getElementById("print").addEventListener("click", () => window.print());
  load();
})();
