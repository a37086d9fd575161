import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The code folders; test/vendor holds the hosted API's SDK unchanged, so it is not ours to word. */
const CODE_FOLDERS = ["api", "shared", "workers", "scripts", "test"];
const NOT_OURS = new Set(["node_modules", "dist", "vendor"]);
const CODE_FILE = /\.(ts|js|mjs|eta|sh|json|sql)$/;

/** Every file under `folder` (repository-relative) whose name `keep` accepts, skipping what is not ours. */
function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return NOT_OURS.has(entry.name) ? [] : filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const codeFiles = (): string[] => CODE_FOLDERS.flatMap((folder) => filesUnder(folder, (name) => CODE_FILE.test(name)));
const docFiles = (): string[] => ["README.md", ...filesUnder("docs", (name) => name.endsWith(".md"))];

/** Each line of each file that `matches`, as `file:line: text`. */
function linesMatching(files: string[], matches: (line: string) => boolean): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((text, i) => (matches(text) ? [`${file}:${i + 1}: ${text.trim()}`] : [])),
  );
}

/** An endpoint number of the service specification: E and one digit, standing alone (not inside a percent-encoded byte). */
const ENDPOINT_NUMBER = /(?<![%\w])E[1-9](?!\w)/;

describe("the repository stands alone", () => {
  it("finds the code and docs to check", () => {
    expect(codeFiles()).to.include.members(["api/app.ts", "workers/main.ts", "test/unit/standalone-source.test.ts"]);
    expect(docFiles()).to.include.members(["README.md", "docs/api.md"]);
  });

  it("names endpoints in code and tests by what they do or by method and path, never by the specification's numbers", () => {
    const found = linesMatching(codeFiles(), (line) => ENDPOINT_NUMBER.test(line));
    expect(
      found,
      `say "the agent completion", "a swarm batch" or the path instead:\n${found.join("\n")}`,
    ).to.deep.equal([]);
  });

  it("names only markdown files the repository holds, so no reader is sent to a document outside it", () => {
    const held = new Set(docFiles().map((doc) => basename(doc)));
    const found = linesMatching([...codeFiles(), ...docFiles()], (line) =>
      [...line.matchAll(/([\w-]+)\.md\b/g)].some((m) => !held.has(`${m[1]}.md`)),
    );
    expect(found, `bring what the reader needs into docs/ and point there:\n${found.join("\n")}`).to.deep.equal([]);
  });

  it("points at no design notes kept beside the repository", () => {
    const found = linesMatching([...codeFiles(), ...docFiles()], (line) => /\.\.\/shared\/design\b/.test(line));
    expect(found, found.join("\n")).to.deep.equal([]);
  });
});
