import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Where distributions put Chromium or Chrome. */
const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

const MISSING = [
  "No Chromium found for the browser tests.",
  "`npm test` installs it through `bash scripts/ensure-services.sh --browser` (apt-get, as root or with passwordless sudo);",
  "or install it yourself (Debian/Ubuntu: `sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable.",
].join(" ");

/** The browser to drive: `CHROMIUM_PATH`, a system Chromium/Chrome, or one Playwright downloaded. */
function findChromium(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH=${chosen} does not exist. ${MISSING}`);
    return chosen;
  }
  const found = [...CANDIDATES, chromium.executablePath()].find((path) => path && existsSync(path));
  if (!found) throw new Error(MISSING);
  return found;
}

/** A headless Chromium; fails (never skips) when none is installed. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Options of a page opened by `pagesBrowser`. */
export interface PageOptions {
  /** A session token of the identity backend, set as the platform's session cookie. */
  sessionToken?: string;
  /** Origins besides the platform that requests may reach. */
  allow?: string[];
  /** Runs scripts (another site's page that submits a form by itself); the platform's own pages run none. */
  javaScript?: boolean;
}

/**
 * A headless Chromium for the platform's pages in one mocha suite: launched before the suite and
 * closed after it; `newPage` opens a fresh profile with JavaScript off, whose requests leave only
 * for the platform and the origins a test allows (nothing may leave this machine),
 * closed after each test. Call it in the `describe` body.
 */
export function pagesBrowser(platformUrl: () => string): { newPage(options?: PageOptions): Promise<Page> } {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  return {
    async newPage(options = {}) {
      const origin = platformUrl();
      const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? false, baseURL: origin });
      contexts.push(context);
      const allowed = [origin, ...(options.allow ?? [])];
      await context.route(
        (url) => !allowed.some((o) => url.href.startsWith(o)),
        (route) => route.abort(),
      );
      if (options.sessionToken) {
        await context.addCookies([
          { name: "apiary_session", value: options.sessionToken, url: origin, httpOnly: true, sameSite: "Strict" },
        ]);
      }
      return context.newPage();
    },
  };
}
