import { expect } from "chai";
import { join } from "node:path";
import madge from "madge";

const ROOT = join(__dirname, "..", "..");

/**
 * The folder rules of ARCHITECTURE.md, checked on the real import graph: shared/ imports neither
 * api/ nor workers/, api/ and workers/ never import each other, api/runs/ imports no HTTP plumbing
 * or routes, and there are no import cycles.
 */
describe("folder boundaries", function () {
  this.timeout(60_000);
  let graph: Record<string, string[]>;
  let cycles: string[][];

  before(async () => {
    const result = await madge(["api", "workers", "shared", "scripts"], {
      baseDir: ROOT,
      fileExtensions: ["ts"],
      tsConfig: join(ROOT, "tsconfig.json"),
      excludeRegExp: [/node_modules/],
    });
    graph = result.obj();
    cycles = result.circular();
  });

  const rules: [string, string][] = [
    ["shared/", "api/"],
    ["shared/", "workers/"],
    ["api/", "workers/"],
    ["workers/", "api/"],
    // Run use cases know nothing of Koa: routes read the request, api/http/ writes the reply.
    ["api/runs/", "api/http/"],
    ["api/runs/", "api/routes/"],
  ];
  for (const [from, to] of rules) {
    it(`${from} never imports ${to}`, () => {
      expect(Object.keys(graph).some((f) => f.startsWith("api/"))).to.equal(true); // the graph is not empty
      const offending = Object.entries(graph).flatMap(([file, deps]) =>
        file.startsWith(from) ? deps.filter((d) => d.startsWith(to)).map((d) => `${file} -> ${d}`) : [],
      );
      expect(offending).to.deep.equal([]);
    });
  }

  it("has no import cycles", () => {
    expect(cycles).to.deep.equal([]);
  });
});
