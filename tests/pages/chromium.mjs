// What the page tests share about the browser: Debian's chromium as they
// launch it (headless, no network of its own) and axe-core run on a page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Debian's chromium (or $CHROMIUM), as the page tests launch it. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * axe-core's violations on `page` as it is, one line each (evaluated
 * through the DevTools protocol: the pages' CSP forbids inline scripts).
 */
export async function axe(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
}
