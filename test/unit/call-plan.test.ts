import { expect } from "chai";
import { BUILT_IN_TEAM_SIZES, callsOf, planSwarmCalls } from "../../shared/swarms/call-plan";
import { SWARM_TYPES } from "../../shared/swarms/swarm-catalog";
import { BUILT_IN_JUDGES } from "../../workers/swarms/types/council-as-a-judge";
import { HEAVY_SWARM_TEAMS } from "../../workers/swarms/types/heavy-swarm-variants";
import { swarmRequestSchema } from "../../api/schemas/swarm-request.schema";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";

/** A swarm request with the schema's defaults, its agents named. */
function swarm(body: Record<string, unknown>): SwarmRequest {
  const { value, error } = swarmRequestSchema.validate({ task: "t", ...body });
  if (error) throw error;
  return value;
}

const names = (...list: string[]) => list.map((agent_name) => ({ agent_name }));

describe("the swarm call plan", () => {
  it("counts the built-in teams the workers run", () => {
    expect(BUILT_IN_TEAM_SIZES.CouncilAsAJudge).to.equal(BUILT_IN_JUDGES.length);
    for (const [variant, team] of Object.entries(HEAVY_SWARM_TEAMS)) {
      expect(BUILT_IN_TEAM_SIZES.heavy[variant as keyof typeof BUILT_IN_TEAM_SIZES.heavy], variant).to.equal(
        team.workers.length,
      );
    }
  });

  it("plans every type of the catalog", () => {
    for (const type of SWARM_TYPES) {
      const agents = type === "DebateWithJudge" || type === "MALT" ? names("A", "B", "C") : names("A", "B");
      const plan = planSwarmCalls(
        swarm({
          swarm_type: type,
          agents,
          rearrange_flow: "A -> B",
          tasks: type === "BatchedGridWorkflow" ? ["x"] : undefined,
        }),
      );
      expect(plan.agents.length, type).to.be.greaterThan(0);
      for (const agent of plan.agents) {
        const { calls } = callsOf(agent);
        expect(calls.max === null || calls.max >= calls.min, `${type} ${agent.name}`).to.equal(true);
      }
    }
  });

  it("counts MALT's and HeavySwarm's fixed schedules, and an MCP agent's tool rounds as a range", () => {
    const malt = planSwarmCalls(swarm({ swarm_type: "MALT", max_loops: 2, agents: names("G", "V", "R") }));
    expect(malt.agents.map((a) => [a.name, callsOf(a).calls])).to.deep.equal([
      ["G", { min: 2, max: 2 }],
      ["V", { min: 6, max: 6 }],
      ["R", { min: 6, max: 6 }],
      ["Consensus", { min: 2, max: 4 }],
    ]);
    const heavy = planSwarmCalls(swarm({ swarm_type: "HeavySwarm", heavy_swarm_loops_per_agent: 2, agents: [] }));
    expect(heavy.agents.filter((a) => a.job === "Worker").map((a) => callsOf(a).calls)).to.deep.equal(
      Array(4).fill({ min: 2, max: 2 }),
    );
    const mcp = planSwarmCalls(
      swarm({ swarm_type: "SequentialWorkflow", agents: [{ agent_name: "M", mcp_url: "https://mcp.example/sse" }] }),
    );
    const { calls, why } = callsOf(mcp.agents[0]);
    expect(calls).to.deep.equal({ min: 1, max: 12 }); // 10 tool rounds and the answer, then the summary
    expect(why).to.include("MCP");
  });
});
