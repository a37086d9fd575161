import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { isRunFailure } from "../../workers/handlers/run-failure";
import { internalAgentModel } from "../../workers/swarms/internal-agent";
import { agentRearrange } from "../../workers/swarms/types/agent-rearrange";
import { inProcessSwarm } from "../helpers/swarm-fixture";
import { REFUSAL_SITES } from "../helpers/worker-refusals";
import { NOT_REQUEST_REFUSALS } from "../helpers/worker-throws";

const ROOT = join(__dirname, "..", "..");

/**
 * Where a run's request can be refused: the handlers, agents and swarm types, and the shared code
 * they refuse through at run time (flows, model resolution).
 */
const SCANNED = ["workers/handlers", "workers/agents", "workers/swarms", "shared/swarms", "shared/llm/providers.ts"];

function sourceFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (statSync(full).isFile()) return [path];
  return readdirSync(full)
    .flatMap((name) => sourceFiles(`${path}/${name}`))
    .filter((file) => file.endsWith(".ts"));
}

/** The statement starting at `lines[i]`: following lines are joined until its parentheses close. */
function statementAt(lines: string[], i: number): string {
  let text = lines[i].trim();
  const open = (t: string) => (t.match(/\(/g)?.length ?? 0) - (t.match(/\)/g)?.length ?? 0);
  for (let j = i + 1; open(text) > 0 && j < lines.length; j++) text += ` ${lines[j].trim()}`;
  return text;
}

/** A statement that refuses: a `throw`, or an error made to be thrown or rejected elsewhere. */
const REFUSING = /\bthrow\b|\bnew \w*Error\(/;

/** Every refusing statement of the scanned source: its file, line and text. */
function throwSites(): { file: string; line: number; text: string }[] {
  return SCANNED.flatMap(sourceFiles).flatMap((file) => {
    const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
    return lines.flatMap((line, i) => {
      const code = line.trim();
      const comment = code.startsWith("*") || code.startsWith("//") || code.startsWith("/*");
      return REFUSING.test(code) && !comment ? [{ file, line: i + 1, text: statementAt(lines, i) }] : [];
    });
  });
}

const listed = [
  ...REFUSAL_SITES.filter((s) => s.throwText !== null).map((s) => ({
    file: s.file,
    throwText: s.throwText!,
    label: s.refusal,
  })),
  ...NOT_REQUEST_REFUSALS.map((s) => ({ file: s.file, throwText: s.throwText, label: s.why })),
];

describe("the worker refusals listed in test/helpers/worker-refusals.ts and worker-throws.ts", () => {
  const sites = throwSites();

  it("finds the worker source's throws (the scan itself works)", () => {
    expect(sites.length).to.be.at.least(listed.length);
    expect(sites.map((s) => s.file)).to.include("workers/handlers/agent-run.handler.ts");
  });

  it("list every throw (or error made) of the worker source: a request the API must refuse first, or why none can cause it", () => {
    const unlisted = sites.filter(
      (site) => !listed.some((entry) => entry.file === site.file && site.text.includes(entry.throwText)),
    );
    expect(
      unlisted.map((s) => `${s.file}:${s.line} ${s.text}`),
      "a worker refusal without an entry: add it to REFUSAL_SITES with a request the API refuses before storing a run (and make the API refuse it), or to NOT_REQUEST_REFUSALS saying why no request causes it",
    ).to.deep.equal([]);
  });

  it("list no throw that is gone, and none twice", () => {
    const stale = listed.filter(
      (entry) => !sites.some((site) => site.file === entry.file && site.text.includes(entry.throwText)),
    );
    expect(stale.map((e) => `${e.file}: ${e.throwText}`)).to.deep.equal([]);
    const ambiguous = sites.filter(
      (site) => listed.filter((entry) => entry.file === site.file && site.text.includes(entry.throwText)).length > 1,
    );
    expect(ambiguous.map((s) => `${s.file}:${s.line}`)).to.deep.equal([]);
  });

  it("give every refusal a request for an endpoint", () => {
    for (const site of REFUSAL_SITES) {
      expect(site.cases, site.refusal).to.not.be.empty;
      for (const c of site.cases)
        expect(Boolean(c.agent || c.swarm || c.reasoning), `${site.refusal}: ${c.name}`).to.equal(true);
    }
  });
});

describe("worker backstops a request meets only when it bypassed the API", () => {
  it("fail the run (a run failure, not an error BullMQ would retry): a flow naming an unknown agent", async () => {
    const { swarm } = inProcessSwarm("AgentRearrange", {
      agents: [{ agent_name: "A" }],
      rearrange_flow: "A -> Ghost",
      task: "t",
    });
    const err = await agentRearrange.run(swarm).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isRunFailure(err), String(err)).to.equal(true);
    expect((err as Error).message).to.match(/not in the swarm: Ghost/);
  });

  it("fail the run: an internal agent with no model to run on", () => {
    const { swarm } = inProcessSwarm("MajorityVoting", { agents: [], task: "t" } as Partial<SwarmRequest> & {
      agents: [];
    });
    let err: unknown = null;
    try {
      internalAgentModel(swarm, "consensus");
    } catch (e) {
      err = e;
    }
    expect(isRunFailure(err), String(err)).to.equal(true);
  });
});
