import { expect } from "chai";
import { config } from "../../../shared/config";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { signedAgent } from "../../helpers/swarm";

/**
 * A request agent may carry the name of one of the type's internal agents (the hosted docs' own
 * examples name agents `Director` and `Judge`): both still count as the agents they are, so the
 * per-agent charge and `number_of_agents` cannot be lowered by naming a worker after an internal role.
 */
describe("a request agent named like an internal agent is counted apart from it", () => {
  let h: Harness;
  let key: string;
  before(async function () {
    this.timeout(60_000);
    ({ h, key } = await harnessWithKey());
  });

  const agent = signedAgent;

  for (const [type, names, internal] of [
    ["MajorityVoting", ["Consensus", "B"], "Consensus"],
    ["HeavySwarm", ["Synthesis", "B"], "Synthesis"],
  ] as const) {
    it(`${type}: a worker named ${internal} and the internal ${internal} are two agents, each billed`, async () => {
      const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
        key,
        body: { swarm_type: type, task: "t", agents: names.map(agent) },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const byInternal = res.body.output.filter((turn: { agent?: string }) => turn.agent === internal);
      expect(byInternal, `the internal ${internal}'s turn`).to.have.length.greaterThan(0);
      const callers = new Set(
        (
          await h.deps.ds.query(`SELECT DISTINCT agent_name, role FROM run_steps WHERE run_id = $1`, [res.body.job_id])
        ).map(
          (row: { agent_name: string; role: string }) =>
            `${row.role === "internal" ? "internal " : ""}${row.agent_name}`,
        ),
      );
      expect(callers.size, [...callers].join(", ")).to.be.greaterThan(names.length);
      expect(res.body.number_of_agents).to.equal(callers.size);
      expect(res.body.usage.billing_info.cost_breakdown.agent_cost).to.be.closeTo(
        callers.size * config.pricing.perAgent,
        1e-9,
      );
    });
  }

  it("refuses a request agent that claims the internal agents' role, which would count it as one of them", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "MajorityVoting",
        task: "t",
        agents: [{ ...agent("Consensus"), role: " Internal" }, agent("B")],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.detail[0].loc).to.deep.equal(["body", "agents", 0, "role"]);
  });
});
