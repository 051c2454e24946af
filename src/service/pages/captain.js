// The captain's page, live (issue 42). The page itself is written by the
// server and works without this script; this keeps its match part
// current: every 10 s while the page is shown it fetches the page again
// and puts the new match part in place, then says what changed (a board's
// result, the score, a new round) once, in the page's status line, which a
// screen reader reads without moving the captain's focus. The line-up form
// is never replaced: boxes half ticked stay as the captain left them.
// @ts-check

/** How often the match is looked at: a result is known within this. */
const EVERY_MS = 10000;

// (Not common.js's byId: that module starts a table page's machinery.)
const match = /** @type {HTMLElement} */ (document.getElementById("match"));
const newsLine = /** @type {HTMLElement} */ (document.getElementById("match-news"));

/**
 * The match part's lines (the heading, the score, each board) as read.
 * @param {Element} part
 * @returns {string[]}
 */
function lines(part) {
  return Array.from(part.querySelectorAll("h2, p, li")).map((e) => (e.textContent || "").trim());
}

async function look() {
  if (document.visibilityState !== "visible") return;
  let text;
  try {
    const res = await fetch(location.pathname + location.search, { cache: "no-store" });
    if (!res.ok) return;
    text = await res.text();
  } catch {
    // The hall's network comes and goes: the next look tries again.
    return;
  }
  const fresh = new DOMParser().parseFromString(text, "text/html").getElementById("match");
  if (!fresh) return;
  const before = lines(match);
  const after = lines(fresh);
  if (before.join("\n") === after.join("\n")) return;
  match.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
  // What is new, in the page's order: a new round says its heading first.
  const news = after.filter((l) => !before.includes(l));
  newsLine.textContent = news.join(". ");
}

setInterval(look, EVERY_MS);
document.addEventListener("visibilitychange", look);
