import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Where distributions put Chromium or Chrome. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];

const MISSING = [
  "No Chromium found for the browser tests.",
  "`npm test` installs it through `bash scripts/ensure-services.sh --browser` (apt-get, as root or with passwordless sudo);",
  "or install it yourself (Debian/Ubuntu: `sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable.",
].join(" ");

/** The browser to drive: `CHROMIUM_PATH`, a system Chromium/Chrome, or one Playwright downloaded. */
export function findChromium(): string {
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
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}
