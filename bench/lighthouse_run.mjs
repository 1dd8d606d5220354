// One Lighthouse run of bench_lighthouse.py, through Lighthouse's Node API so that the page
// carries the player's session cookie in a fresh browser. The report gets one key of ours:
// `installabilityErrors`, Chromium's reasons the page's app could not be installed ([]: none).
//
//   node bench/lighthouse_run.mjs URL mobile|desktop OUT.json SESSION_ID
//
// Chromium is Debian's /usr/bin/chromium (puppeteer-core downloads no browser).

import { writeFileSync } from "node:fs";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import puppeteer from "puppeteer-core";

const [url, form, out, session] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  if (session) await page.setCookie({ name: "sessionid", value: session, url });
  const flags = {
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    // Lighthouse would clear the origin's storage, the cookie with it. The browser is new
    // for each run (an empty profile), so its cache starts empty all the same.
    disableStorageReset: true,
  };
  const result = await lighthouse(url, flags, form === "desktop" ? desktopConfig : undefined, page);
  // Lighthouse 12 has no installability audit: ask Chromium, as Chrome's install prompt does,
  // on the page just measured (tests/e2e/test_installable.py makes the same call).
  const cdp = await page.createCDPSession();
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  const report = JSON.parse(result.report);
  report.installabilityErrors = installabilityErrors.map((error) => error.errorId);
  writeFileSync(out, JSON.stringify(report));
} finally {
  await browser.close();
}
