import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Every file git tracks, relative to the project root. */
function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
}

function lineCount(file: string): number {
  return readFileSync(join(ROOT, file), "utf8").split("\n").length;
}

/**
 * A file does one job, so no source, script or doc outside the tests grows past 300 lines (the
 * README's own, shorter limit is checked with its links in `docs-links.test.ts`).
 */
describe("file sizes", () => {
  const MAX_LINES = 300;

  it(`keeps every file outside test/ under ${MAX_LINES} lines`, () => {
    const checked = trackedFiles().filter((f) => /\.(ts|mjs|sh|md|eta|yml|json)$/.test(f) && !f.startsWith("test/"));
    expect(checked).to.include("api/app.ts"); // the listing is not empty
    const tooLong = checked
      .filter((f) => f !== "package-lock.json")
      .map((f) => ({ file: f, lines: lineCount(f) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).to.deep.equal([]);
  });
});
