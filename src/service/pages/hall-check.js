// The hall check on the arbiter's overview (/arbiter): every table's parts
// as they report now (GET /api/check, venue arbiter token), one row per
// part with its verdict in words, and a button per table that checks that
// table again (GET /api/tables/{id}/check). The token is the one common.js
// keeps for this tab; its messages are js-hall-*.
// @ts-check
import { byId, tactus } from "./common.js";

/**
 * One part's line of the hall check (`GET /api/check`).
 * @typedef {object} CheckLine
 * @property {string | null} table
 * @property {string} part
 * @property {boolean} ok
 * @property {string} text
 */

(() => {
  const section = document.getElementById("hall-check");
  if (!section || document.body.dataset.table) return; // overview only
  const t = tactus.t;
  const run = byId("hall-check-run");
  const status = byId("hall-check-status");
  const table = byId("hall-check-table");
  const rows = byId("hall-check-rows");
  section.hidden = false;

  function token() {
    const m = location.hash.match(/token=([0-9a-f]+)/);
    return m ? m[1] : sessionStorage.getItem("tactus-token-venue") || "";
  }

  /**
   * @param {string} path
   * @returns {Promise<{ lines: CheckLine[] }>}
   */
  async function get(path) {
    const res = await fetch(path, {
      headers: { "Accept": "application/json", "Authorization": "Bearer " + token() },
      cache: "no-store",
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || res.status + " " + res.statusText);
    return body;
  }

  // The rows of one table's lines; the first carries its check-again button.
  /** @param {string} id @param {CheckLine[]} lines */
  function tableRows(id, lines) {
    return lines.map((l, i) => {
      const tr = document.createElement("tr");
      tr.dataset.table = id;
      tr.dataset.part = l.part;
      tr.dataset.ok = l.ok ? "1" : "0";
      const th = document.createElement("th");
      th.scope = "row";
      // Every row names its table: a screen reader reads rows one by one.
      th.textContent = id;
      const part = document.createElement("td");
      part.textContent = l.part;
      const result = document.createElement("td");
      // The verdict in words first: never only in colour.
      const verdict = document.createElement("strong");
      verdict.textContent = l.ok ? t("js-hall-ok") : t("js-hall-fail");
      result.append(verdict, " " + l.text);
      const again = document.createElement("td");
      if (i === 0) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = t("js-hall-again", { table: id });
        b.addEventListener("click", () => recheck(id));
        again.append(b);
      }
      tr.append(th, part, result, again);
      return tr;
    });
  }

  /** @param {CheckLine[]} lines */
  function summary(lines) {
    const failed = lines.filter((l) => !l.ok).length;
    return failed ? t("js-hall-failed", { count: failed }) : t("js-hall-all-ok");
  }

  async function checkAll() {
    status.textContent = t("js-hall-checking");
    try {
      const body = await get("/api/check");
      /** @type {Map<string, CheckLine[]>} */
      const byTable = new Map();
      for (const l of body.lines) {
        // The venue's own lines (no table) under "".
        const lines = byTable.get(l.table || "") || [];
        lines.push(l);
        byTable.set(l.table || "", lines);
      }
      rows.replaceChildren(...[...byTable].flatMap(([id, lines]) => tableRows(id, lines)));
      table.hidden = false;
      status.textContent = summary(body.lines);
    } catch (e) {
      status.textContent = t("js-hall-error", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** @param {string} id */
  async function recheck(id) {
    status.textContent = t("js-hall-checking-one", { table: id });
    try {
      const body = await get("/api/tables/" + encodeURIComponent(id) + "/check");
      const old = [...rows.querySelectorAll("tr")].filter((r) => r.dataset.table === id);
      const fresh = tableRows(id, body.lines);
      if (old[0]) old[0].before(...fresh);
      old.forEach((r) => r.remove());
      status.textContent = t("js-hall-table-done", { table: id }) + " " + summary(body.lines);
      const again = fresh[0] && fresh[0].querySelector("button");
      if (again) again.focus();
    } catch (e) {
      status.textContent = t("js-hall-error", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  run.addEventListener("click", checkAll);
})();
