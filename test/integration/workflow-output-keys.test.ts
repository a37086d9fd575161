import { expect } from "chai";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { signedAgent } from "../helpers/swarm";

/**
 * Workflow outputs are keyed by the client's agent names: every name, `__proto__` and
 * `constructor` included, keeps the output it paid for, as an own key of the answer.
 */
describe("workflow outputs keep every agent's name as its key", () => {
  let h: Harness;
  let key: string;
  before(async function () {
    this.timeout(60_000);
    ({ h, key } = await harnessWithKey());
  });

  const agent = signedAgent;
  const own = (outputs: Record<string, unknown>, name: string) => Object.getOwnPropertyDescriptor(outputs, name)?.value;

  it("a graph node named __proto__ or constructor has its output under its name, per loop too", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/graph-workflow/completions", {
      key,
      body: {
        agents: [agent("__proto__"), agent("constructor")],
        edges: [{ source: "__proto__", target: "constructor" }],
        task: "t",
        max_loops: 2,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const name of ["__proto__", "constructor"]) {
      expect(own(res.body.outputs, name), name).to.equal(`by ${name}`);
      expect(own(res.body.outputs, `${name}_loop_1`), `${name}_loop_1`).to.equal(`by ${name}`);
    }
    expect(Object.keys(res.body.outputs)).to.have.length(6);
  });

  it("a grid agent named __proto__ has its output in every task's cell", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/batched-grid-workflow/completions", {
      key,
      body: { agent_completions: [agent("__proto__"), agent("B")], tasks: ["x", "y"] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const cell of res.body.outputs) {
      expect(Object.keys(cell)).to.have.members(["__proto__", "B"]);
      expect(own(cell, "__proto__")).to.equal("by __proto__");
    }
  });
});
