import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, postSwarm } from "../../helpers/swarm";

const unique = (label: string) => `fid-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Settings of the first agent: what the acting agent's calls must never be given instead of its own. */
const FIRST = { model_name: "gpt-4o-mini", temperature: 0.9, max_tokens: 900, llm_args: { top_p: 0.9 } };

/** Distinct settings for an acting agent: every call it makes must carry exactly these. */
function settings(temperature: number, maxTokens: number, topP: number) {
  return { model_name: "gpt-4o-mini", temperature, max_tokens: maxTokens, llm_args: { top_p: topP } };
}

function expectSettings(call: any, temperature: number, maxTokens: number, topP: number, what: string) {
  expect({ temperature: call.temperature, max_tokens: call.max_tokens, top_p: call.top_p }, what).to.deep.equal({
    temperature,
    max_tokens: maxTokens,
    top_p: topP,
  });
}

/** The calls of a run forced to call `tool`. */
const decisionCalls = (calls: any[], tool: string) => calls.filter((c) => c.tool_choice?.function?.name === tool);

describe("Swarm fidelity: acting agents", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  describe("every decision call uses the acting agent's own settings, never the first agent's", () => {
    it("MultiAgentRouter: the router's decision", async () => {
      const marker = unique("router");
      const res = await postSwarm(h, key, {
        swarm_type: "MultiAgentRouter",
        agents: [agent("First", FIRST), agent("Dispatch", { role: "router", ...settings(0.2, 1500, 0.3) })],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [route] = decisionCalls(callsMentioning(h, marker), "route_task");
      expect(callerOf(route)).to.equal("Dispatch");
      expectSettings(route, 0.2, 1500, 0.3, "the router's call");
    });

    it("a Claude agent deciding keeps its settings but not extended thinking, which Anthropic refuses with a forced tool call", async () => {
      const marker = unique("router-claude");
      const res = await postSwarm(h, key, {
        swarm_type: "MultiAgentRouter",
        agents: [
          agent("First", FIRST),
          agent("Dispatch", {
            role: "router",
            model_name: "claude-sonnet-4-20250514",
            temperature: 0.2,
            max_tokens: 3000,
            reasoning_enabled: true,
          }),
        ],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [route] = decisionCalls(callsMentioning(h, marker), "route_task");
      expect(route.model).to.equal("claude-sonnet-4-20250514");
      expect([route.temperature, route.max_tokens, route.thinking]).to.deep.equal([0.2, 3000, undefined]);
    });

    it("HierarchicalSwarm: the director's orders and its synthesis", async () => {
      const marker = unique("director");
      const res = await postSwarm(h, key, {
        swarm_type: "HierarchicalSwarm",
        agents: [agent("First", FIRST), agent("Boss", { role: "director", ...settings(0.1, 1700, 0.4) })],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const boss = callsMentioning(h, marker).filter((c) => callerOf(c) === "Boss");
      expect(boss).to.have.length(2);
      boss.forEach((call, i) => expectSettings(call, 0.1, 1700, 0.4, `Boss's call ${i}`));
    });

    it("PlannerWorkerSwarm: the planner's plan and the judge's verdict", async () => {
      const marker = unique("planner");
      const res = await postSwarm(h, key, {
        swarm_type: "PlannerWorkerSwarm",
        agents: [
          agent("First", FIRST),
          agent("Plotter", { role: "planner", ...settings(0.3, 1300, 0.5) }),
          agent("Arbiter", { role: "judge", ...settings(0.4, 1100, 0.6) }),
        ],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      const [plan] = decisionCalls(calls, "plan_tasks");
      const [verdict] = decisionCalls(calls, "judge_goal");
      expect([callerOf(plan), callerOf(verdict)]).to.deep.equal(["Plotter", "Arbiter"]);
      expectSettings(plan, 0.3, 1300, 0.5, "the planner's call");
      expectSettings(verdict, 0.4, 1100, 0.6, "the judge's call");
    });

    it("LLMCouncil: each member ranks with its own settings", async () => {
      const marker = unique("council");
      const res = await postSwarm(h, key, {
        swarm_type: "LLMCouncil",
        agents: [agent("First", FIRST), agent("Second", settings(0.5, 1200, 0.7))],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const rankings = decisionCalls(callsMentioning(h, marker), "rank_answers");
      expect(rankings.map(callerOf)).to.have.members(["First", "Second"]);
      for (const call of rankings) {
        if (callerOf(call) === "First") expectSettings(call, 0.9, 900, 0.9, "First's ranking");
        else expectSettings(call, 0.5, 1200, 0.7, "Second's ranking");
      }
    });
  });

  describe("HeavySwarm's internal agents fall back to the agents' model when no model field is given", () => {
    it("the question generator and the synthesis run on the agents' OpenAI model, never a Claude default", async () => {
      const marker = unique("heavy");
      const res = await postSwarm(h, key, {
        swarm_type: "HeavySwarm",
        agents: [agent("Alpha", { model_name: "gpt-4o-mini" }), agent("Beta", { model_name: "gpt-4o-mini" })],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      expect(calls.map(callerOf)).to.deep.equal(["Question Generator", "Alpha", "Beta", "Synthesis"]);
      expect(calls.map((c) => c.model)).to.deep.equal(["gpt-4o-mini", "gpt-4o-mini", "gpt-4o-mini", "gpt-4o-mini"]);
    });
  });

  describe("one crediting rule: a turn made in a job names the job (role) and the agent that did it (agent)", () => {
    const jobTurns = (output: any[], jobs: string[]) =>
      output.filter((t) => jobs.includes(t.role)).map((t) => ({ role: t.role, agent: t.agent }));

    it("request agents acting as router, director, planner, judge and chairman", async () => {
      const cases = [
        {
          swarm_type: "MultiAgentRouter",
          agents: [agent("Dispatch", { role: "router" }), agent("Doer")],
          expected: [{ role: "Router", agent: "Dispatch" }],
        },
        {
          swarm_type: "HierarchicalSwarm",
          agents: [agent("Boss", { role: "director" }), agent("Doer")],
          expected: [
            { role: "Director", agent: "Boss" },
            { role: "Director", agent: "Boss" },
          ],
        },
        {
          swarm_type: "PlannerWorkerSwarm",
          agents: [agent("Plotter", { role: "planner" }), agent("Arbiter", { role: "judge" }), agent("Doer")],
          expected: [
            { role: "Planner", agent: "Plotter" },
            { role: "Judge", agent: "Arbiter" },
          ],
        },
        {
          swarm_type: "LLMCouncil",
          agents: [agent("Boss", { role: "chairman" }), agent("Ann"), agent("Bob")],
          expected: [{ role: "Chairman", agent: "Boss" }],
        },
      ];
      for (const { swarm_type, agents, expected } of cases) {
        const res = await postSwarm(h, key, { swarm_type, agents, task: unique("credit"), max_loops: 1 });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const jobs = [...new Set(expected.map((e) => e.role))];
        expect(jobTurns(res.body.output, jobs), swarm_type).to.deep.equal(expected);
      }
    });

    it("internal agents doing a job are credited under the job's name in both fields", async () => {
      const cases = [
        { swarm_type: "MultiAgentRouter", jobs: ["Router"] },
        { swarm_type: "HierarchicalSwarm", jobs: ["Director"] },
        { swarm_type: "PlannerWorkerSwarm", jobs: ["Planner", "Judge"] },
        { swarm_type: "LLMCouncil", jobs: ["Chairman"] },
        { swarm_type: "MajorityVoting", jobs: ["Consensus"] },
        { swarm_type: "CouncilAsAJudge", jobs: ["Chair"] },
        { swarm_type: "HeavySwarm", jobs: ["Question Generator", "Synthesis"] },
      ];
      for (const { swarm_type, jobs } of cases) {
        const res = await postSwarm(h, key, {
          swarm_type,
          agents: [agent("Ann"), agent("Bob")],
          task: unique("internal"),
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const turns = jobTurns(res.body.output, jobs);
        expect(turns.length, swarm_type).to.be.at.least(jobs.length);
        for (const turn of turns) expect(turn.agent, `${swarm_type} ${turn.role}`).to.equal(turn.role);
      }
    });
  });

  describe("internal agents: the hosted default temperature, and an output cap the model allows", () => {
    /** A model whose provider refuses more than 4,096 output tokens (the simulator refuses it as OpenAI does). */
    const SMALL = { model_name: "gpt-3.5-turbo", max_tokens: 1000 };

    it("MajorityVoting: the Consensus asks a small model for its 4,096 tokens, not the 8,192 it refuses; every call is sent 0.5", async () => {
      const marker = unique("small-model");
      const res = await postSwarm(h, key, {
        swarm_type: "MajorityVoting",
        agents: [agent("Alpha", SMALL), agent("Beta", SMALL)],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      expect(calls.map((c) => [callerOf(c), c.model, c.max_tokens, c.temperature])).to.deep.equal([
        ["Alpha", "gpt-3.5-turbo", 1000, 0.5],
        ["Beta", "gpt-3.5-turbo", 1000, 0.5],
        ["Consensus", "gpt-3.5-turbo", 4096, 0.5],
      ]);

      // On a model that allows more, an internal agent still asks for the agents' default, 8,192.
      const roomy = unique("roomy-model");
      const ran = await postSwarm(h, key, {
        swarm_type: "MajorityVoting",
        agents: [agent("Alpha", { model_name: "gpt-4.1" }), agent("Beta", { model_name: "gpt-4.1" })],
        task: roomy,
      });
      expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
      const consensus = callsMentioning(h, roomy).filter((c) => callerOf(c) === "Consensus");
      expect(consensus.map((c) => c.max_tokens)).to.deep.equal([8192]);
    });

    it("AutoSwarmBuilder: the Builder and the agents it writes ask a small model for at most its 4,096 tokens", async () => {
      const marker = unique("small-builder");
      const design = {
        name: `Team ${marker}`,
        description: "Two writers",
        swarm_type: "SequentialWorkflow",
        agents: {
          [`Drafter-${marker}`]: { description: "Drafts", system_prompt: `You draft (${marker}).` },
          [`Editor-${marker}`]: { description: "Edits", system_prompt: `You edit (${marker}).` },
        },
      };
      h.sim.script({ contains: marker, reply: JSON.stringify(design) });
      try {
        const res = await postSwarm(h, key, {
          swarm_type: "AutoSwarmBuilder",
          agents: [agent("Hint", SMALL)],
          task: `Write about ${marker}`,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const calls = callsMentioning(h, marker);
        expect(calls.map((c) => [callerOf(c), c.model, c.max_tokens, c.temperature])).to.deep.equal([
          ["Builder", "gpt-3.5-turbo", 4096, 0.5],
          [`Drafter-${marker}`, "gpt-3.5-turbo", 4096, 0.5],
          [`Editor-${marker}`, "gpt-3.5-turbo", 4096, 0.5],
        ]);
      } finally {
        h.sim.clearScripts();
      }
    });
  });
});
