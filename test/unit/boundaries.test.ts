import { expect } from "chai";
import { join } from "node:path";
import madge from "madge";

const ROOT = join(__dirname, "..", "..");

/** Use cases: what the service does, called by routes; they know nothing of HTTP. */
const USE_CASES = ["api/runs/", "api/marketplace/", "api/token-launch/", "api/limits/", "api/auth/"];

/** The run spine (store the row, enqueue the id, wait, answer): what run use cases call, below them all. */
const SPINE = ["api/spine/"];

/** The import graph of the code, with type-only imports or without them. */
async function importGraph(withTypeImports: boolean): Promise<{ graph: Record<string, string[]>; cycles: string[][] }> {
  const result = await madge(["api", "workers", "shared", "scripts"], {
    baseDir: ROOT,
    fileExtensions: ["ts"],
    tsConfig: join(ROOT, "tsconfig.json"),
    excludeRegExp: [/node_modules/],
    detectiveOptions: { ts: { skipTypeImports: !withTypeImports } },
  });
  return { graph: result.obj(), cycles: result.circular() };
}

function offending(graph: Record<string, string[]>, from: string[], to: string[]): string[] {
  const within = (file: string, folders: string[]) => folders.some((folder) => file.startsWith(folder));
  return Object.entries(graph).flatMap(([file, deps]) =>
    within(file, from) ? deps.filter((d) => within(d, to)).map((d) => `${file} -> ${d}`) : [],
  );
}

/**
 * The folder rules of docs/architecture.md ("Layout"), checked on the real import graph (ESLint's
 * `boundaries/dependencies` says the same while editing): shared/ imports neither api/ nor
 * workers/, api/ and workers/ never import each other, use cases never import the HTTP plumbing or
 * the routes, the plumbing never imports routes nor calls a use case (it may name their types),
 * api/marketplace/ never imports api/runs/ (runs use marketplace prompts, the marketplace starts
 * runs through the spine), the spine imports no use case, and there are no import cycles.
 */
describe("folder boundaries", function () {
  this.timeout(60_000);
  let all: Record<string, string[]>;
  let values: Record<string, string[]>;
  let cycles: string[][];

  before(async () => {
    ({ graph: all, cycles } = await importGraph(true));
    ({ graph: values } = await importGraph(false));
  });

  const rules: [string[], string[]][] = [
    [["shared/"], ["api/"]],
    [["shared/"], ["workers/"]],
    [["api/"], ["workers/"]],
    [["workers/"], ["api/"]],
    [
      [...USE_CASES, ...SPINE],
      ["api/http/", "api/routes/"],
    ],
    [["api/http/"], ["api/routes/"]],
    [["api/marketplace/"], ["api/runs/"]],
  ];
  for (const [from, to] of rules) {
    it(`${from.join(", ")} never import ${to.join(", ")}`, () => {
      expect(Object.keys(all).some((f) => f.startsWith("api/http/"))).to.equal(true); // the graph is not empty
      expect(offending(all, from, to)).to.deep.equal([]);
    });
  }

  it("api/http/ names use cases' types but never calls them", () => {
    // The graph without type imports is a different one: it lacks edges the full graph has.
    expect(offending(all, ["api/http/"], USE_CASES)).to.not.deep.equal([]);
    expect(offending(values, ["api/http/"], USE_CASES)).to.deep.equal([]);
  });

  it("api/spine/ imports no use case", () => {
    expect(Object.keys(all).some((f) => f.startsWith("api/spine/"))).to.equal(true);
    expect(offending(all, SPINE, USE_CASES)).to.deep.equal([]);
  });

  it("api/http/ names the spine's types but never calls it", () => {
    expect(offending(all, ["api/http/"], SPINE)).to.not.deep.equal([]);
    expect(offending(values, ["api/http/"], SPINE)).to.deep.equal([]);
  });

  it("has no import cycles", () => {
    expect(cycles).to.deep.equal([]);
  });
});
