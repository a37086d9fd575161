import { expect } from "chai";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { isRunFailure } from "../../workers/handlers/run-failure";
import {
  AVAILABLE_SWARM_TYPES,
  runsOncePerTask,
  SWARM_CATALOG,
  SWARM_TYPE_ALIASES,
  SWARM_TYPES,
  swarmTypeRecord,
} from "../../shared/swarms/swarm-catalog";
import { assertSwarmRules, swarmRuleProblems } from "../../shared/swarms/swarm-rules";

const request = (fields: Partial<SwarmRequest>): SwarmRequest =>
  ({ max_loops: 1, swarm_type: "SequentialWorkflow", task: "t", ...fields }) as SwarmRequest;
const agents = (...roles: (string | null)[]) => roles.map((role, i) => ({ agent_name: `A${i}`, role })) as never;

describe("the swarm catalog", () => {
  it("derives the type list, the available types and the aliases from its records", () => {
    expect(SWARM_TYPES).to.have.length(20);
    expect(SWARM_TYPES.slice(-3)).to.deep.equal(["MALT", "DeepResearchSwarm", "InteractiveGroupChat"]);
    expect(SWARM_TYPES.slice(0, 3)).to.deep.equal(["AgentRearrange", "MixtureOfAgents", "SequentialWorkflow"]);
    expect(AVAILABLE_SWARM_TYPES).to.deep.equal(SWARM_TYPES.filter((type) => SWARM_CATALOG[type].available));
    expect(SWARM_TYPE_ALIASES).to.deep.equal({ HiearchicalSwarm: "HierarchicalSwarm" });
    expect(swarmTypeRecord("HiearchicalSwarm"), "an alias is no type name").to.equal(undefined);
    expect(swarmTypeRecord("toString"), "nor is an Object property").to.equal(undefined);
    expect(swarmTypeRecord("DebateWithJudge")?.agents).to.deep.equal({ exactly: 3, inOrder: ["Pro", "Con", "Judge"] });
  });

  it("runs tasks once per task unless the type reads them itself, and only without a task", () => {
    expect(runsOncePerTask(request({ task: null, tasks: ["a", "b"] }))).to.equal(true);
    expect(runsOncePerTask(request({ task: " ", tasks: ["a"] }))).to.equal(true);
    expect(runsOncePerTask(request({ task: "t", tasks: ["a"] }))).to.equal(false);
    expect(runsOncePerTask(request({ task: null, tasks: [] }))).to.equal(false);
    expect(runsOncePerTask(request({ swarm_type: "BatchedGridWorkflow", task: null, tasks: ["a"] }))).to.equal(false);
  });

  it("names the model field of each type's internal agents, so an unservable one is a 400 before the run is stored", () => {
    const withFields = SWARM_TYPES.filter((type) => SWARM_CATALOG[type].modelFields?.length).map((type) => [
      type,
      SWARM_CATALOG[type].modelFields,
    ]);
    expect(Object.fromEntries(withFields)).to.deep.equal({
      HierarchicalSwarm: ["director_model_name"],
      CouncilAsAJudge: ["council_judge_model_name"],
      HeavySwarm: ["heavy_swarm_question_agent_model_name", "heavy_swarm_worker_model_name"],
      LLMCouncil: ["chairman_model"],
    });
  });
});

describe("the swarm request rules", () => {
  it("give each type's agent count rule and its own checks, in that order, as readable problems", () => {
    const cases: [Partial<SwarmRequest>, string[]][] = [
      [{ swarm_type: "MixtureOfAgents", agents: agents(null) }, ["MixtureOfAgents needs at least 2 agents (got 1)"]],
      [{ swarm_type: "auto", agents: [] }, ["auto needs at least 1 agent (got 0)"]],
      [
        { swarm_type: "DebateWithJudge", agents: agents(null, null, null, null) },
        ["DebateWithJudge needs exactly 3 agents, in order Pro, Con, Judge (got 4)"],
      ],
      [
        { swarm_type: "AgentRearrange", agents: [] },
        [
          "AgentRearrange needs at least 1 agent (got 0)",
          "AgentRearrange needs a rearrange_flow, e.g. 'Researcher -> Writer, Critic -> Editor'",
        ],
      ],
      [
        { swarm_type: "AgentRearrange", agents: agents(null), rearrange_flow: "A0 -> Ghost" },
        ["rearrange_flow names agents that are not in the swarm: Ghost (agents: A0)"],
      ],
      [
        { swarm_type: "HierarchicalSwarm", agents: agents(" Director ") },
        ["HierarchicalSwarm needs at least one worker besides the agent with role 'director'"],
      ],
      [
        { swarm_type: "PlannerWorkerSwarm", agents: agents("planner", "JUDGE") },
        ["PlannerWorkerSwarm needs at least one worker besides the agents with role 'planner' or 'judge'"],
      ],
      [
        { swarm_type: "MultiAgentRouter", agents: agents("router") },
        ["MultiAgentRouter needs at least one agent to route to besides the agent with role 'router'"],
      ],
      [
        { swarm_type: "LLMCouncil", agents: agents("chairman", null) },
        ["LLMCouncil needs at least 2 members besides the chairman (got 1)"],
      ],
      [
        { swarm_type: "BatchedGridWorkflow", agents: agents(null) },
        ["BatchedGridWorkflow needs tasks: the grid is every agent on every task"],
      ],
      [
        { swarm_type: "MALT", agents: agents(null, null) },
        ["MALT needs exactly 3 agents, in order Generator, Verifier, Refiner (got 2)"],
      ],
      [{ swarm_type: "InteractiveGroupChat", agents: [] }, ["InteractiveGroupChat needs at least 1 agent (got 0)"]],
      [{ swarm_type: "CouncilAsAJudge", agents: [] }, []],
      [{ swarm_type: "DeepResearchSwarm", agents: [] }, []],
      [{ swarm_type: "MALT", agents: agents(null, null, null) }, []],
      [{ swarm_type: "HierarchicalSwarm", agents: agents("director", null) }, []],
      [{ swarm_type: "MultiAgentRouter", agents: agents("router", "router") }, []],
    ];
    for (const [fields, problems] of cases) {
      expect(swarmRuleProblems(request(fields)), JSON.stringify(fields)).to.deep.equal(problems);
    }
  });

  it("check the input, the type and unique names for every type, before the type's own rules", () => {
    const problems = swarmRuleProblems(
      request({
        swarm_type: "NoSuchSwarm",
        task: " ",
        agents: [{ agent_name: "Twin" }, { agent_name: " Twin " }] as never,
      }),
    );
    expect(problems).to.deep.equal([
      "Give the swarm something to do: one of task, tasks or messages is required",
      "swarm_type 'NoSuchSwarm' is not available yet on this service (see GET /v1/swarms/available)",
      "Agent names must be unique within a swarm: Twin",
    ]);
  });

  it("refuse with one 400 INVALID_SWARM joining the problems, a run failure when the worker meets it", () => {
    expect(() => assertSwarmRules(request({ agents: agents(null) }))).to.not.throw();
    let err: unknown = null;
    try {
      assertSwarmRules(request({ swarm_type: "GroupChat", agents: agents(null), task: "" }));
    } catch (e) {
      err = e;
    }
    expect(isRunFailure(err), String(err)).to.equal(true);
    expect(err).to.include({ status: 400, code: "INVALID_SWARM" });
    expect((err as Error).message).to.equal(
      "Give the swarm something to do: one of task, tasks or messages is required; GroupChat needs at least 2 agents (got 1)",
    );
  });
});
