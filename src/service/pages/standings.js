// The standings page: a real table (caption, column and row headers) that
// sorts by any column from the keyboard. Each column header is a button
// (the WAI-ARIA sortable table pattern): Enter or Space sorts by it, again
// the other way; the header says how with aria-sort, and the status line
// says it in words, since a screen reader does not always read aria-sort
// changing.
// @ts-check
import { byId, tactus } from "./common.js";

(() => {
  const table = byId("standings", HTMLTableElement);
  const status = byId("sort-status");
  const body = table.tBodies[0];
  const heads = /** @type {HTMLTableCellElement[]} */ ([...table.querySelectorAll("thead th")]);
  /** @param {HTMLTableRowElement} row @param {number} i */
  const cell = (row, i) => (row.cells[i].textContent || "").trim();
  heads.forEach((th, i) => {
    const button = /** @type {HTMLButtonElement} */ (th.querySelector("button"));
    button.addEventListener("click", () => {
      const ascending = th.getAttribute("aria-sort") !== "ascending";
      const numeric = button.dataset.kind === "number";
      const rows = [...body.rows];
      rows.sort((a, b) => {
        const [x, y] = [cell(a, i), cell(b, i)];
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y, tactus.pageLang);
        // Ties keep the standings' order (the place, then the start rank).
        return (ascending ? order : -order) || Number(cell(a, 0)) - Number(cell(b, 0)) || Number(cell(a, 3)) - Number(cell(b, 3));
      });
      body.replaceChildren(...rows);
      for (const other of heads) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      tactus.say(status, tactus.t("js-sorted", {
        column: button.textContent || "",
        order: tactus.t(ascending ? "js-sort-ascending" : "js-sort-descending"),
      }));
    });
  });
})();
