import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** A backticked path whose first segment is one of these names a file or folder of the repository. */
const REPO_FOLDERS = new Set(["api", "workers", "shared", "scripts", "test", "docs", ".ci"]);

/** Backticked root files the docs may name (`Procfile`, `package.json`…), told apart from other code by their form. */
const ROOT_FILE = /^(Procfile|[\w.-]+\.(md|json|ya?ml|mjs))$/;

interface DocLine {
  doc: string;
  line: number;
  text: string;
}

/** README.md and every page of docs/, as repository-relative paths. */
function docFiles(): string[] {
  const pages = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...pages.map((name) => `docs/${name}`)];
}

/** The lines of a doc outside fenced code blocks (which quote commands and program output, not prose). */
function proseLines(doc: string): DocLine[] {
  let fenced = false;
  const lines: DocLine[] = [];
  readFileSync(join(ROOT, doc), "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
      else if (!fenced) lines.push({ doc, line: i + 1, text });
    });
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** The anchors a doc's headings get, numbered as GitHub numbers repeated ones. */
function anchorsOf(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(doc)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(text);
    if (!heading) continue;
    const base = anchorOf(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

const missing = (path: string) => !existsSync(join(ROOT, path));

/** Problems with one relative link: a missing file, or a missing heading for its `#anchor`. */
function linkProblem(doc: string, target: string): string | null {
  const [path, anchor] = target.split("#");
  const file = path ? relative(ROOT, join(ROOT, dirname(doc), path)) : doc;
  if (missing(file)) return `links to ${target}, but ${file} is not in the repository`;
  if (anchor && file.endsWith(".md") && !anchorsOf(file).has(anchor))
    return `links to ${target}, but ${file} has no heading with the anchor #${anchor}`;
  return null;
}

/** Problems with one backticked span when it names a repository path. */
function pathProblem(span: string): string | null {
  if (!/^[\w.@-]+(\/[\w.@-]*)*$/.test(span)) return null; // prose, code, globs, placeholders, URLs
  const path = span.replace(/\/$/, "");
  const [first] = path.split("/");
  const namesRepoPath = path.includes("/") ? REPO_FOLDERS.has(first) : ROOT_FILE.test(path);
  return namesRepoPath && missing(path) ? `names \`${span}\`, which is not in the repository` : null;
}

/** Every problem of every doc, as `doc:line: problem`. */
function problems(check: (line: DocLine) => string[]): string[] {
  return docFiles()
    .flatMap(proseLines)
    .flatMap((line) => check(line).map((problem) => `${line.doc}:${line.line}: ${problem}`));
}

const HINT =
  "Docs must name files that exist: when a file moves (the code is being re-laid, api/ especially), " +
  "point the doc at the file's new home, or name its folder instead. Problems:\n";

describe("README.md and docs/", () => {
  it("find the docs to check", () => {
    expect(docFiles()).to.include.members(["README.md", "docs/api.md", "docs/architecture.md"]);
  });

  it("link only to files and headings that exist", () => {
    const found = problems(({ doc, text }) =>
      [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1])
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)) // http:, https:, mailto:
        .map((target) => linkProblem(doc, target))
        .filter((p): p is string => p !== null),
    );
    expect(found, HINT + found.join("\n")).to.deep.equal([]);
  });

  it("name only repository paths that exist", () => {
    const found = problems(({ text }) =>
      [...text.matchAll(/`([^`]+)`/g)].map((m) => pathProblem(m[1].trim())).filter((p): p is string => p !== null),
    );
    expect(found, HINT + found.join("\n")).to.deep.equal([]);
  });

  it("name endpoints by method and path: the specification's endpoint numbers appear only in the mapping table of docs/api.md", () => {
    const found = problems(({ doc, text }) =>
      /\bE[1-9]\b/.test(text) && !(doc === "docs/api.md" && /^\|\s*E[1-9]\s*\|/.test(text))
        ? [`names an endpoint by its spec code: ${text.trim()}`]
        : [],
    );
    expect(found, found.join("\n")).to.deep.equal([]);
  });

  it("keep the README a front door that fits on two screens (at most 170 lines)", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    expect(lines, "move detail into docs/").to.be.at.most(170);
  });
});
