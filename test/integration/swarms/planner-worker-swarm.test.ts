import { expect } from "chai";
import { decide, DecisionError } from "../../../workers/swarms/structured-decision";
import {
  findCycle,
  planProblem,
  planTool,
  renderPlan,
  type Plan,
  type PlannedTask,
} from "../../../workers/swarms/types/planner-worker-plan";
import { plannerWorkerSwarm } from "../../../workers/swarms/types/planner-worker-swarm";
import {
  dependencyLevels,
  runPlan,
  startOrder,
  type TaskResult,
} from "../../../workers/swarms/types/planner-worker-tasks";
import { renderVerdict, verdictProblem, type Verdict } from "../../../workers/swarms/types/planner-worker-verdict";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { inProcessSwarm } from "../../helpers/swarm-fixture";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  entriesMentioning,
  expectReplayWithoutLlm,
  inputOf,
  postSwarm,
  storedStepCount,
  uniqueMarker,
} from "../../helpers/swarm";

const unique = (label: string) => uniqueMarker(`pw-${label}`);

function localSwarm(agents: ReturnType<typeof agent>[], opening: string, parallel = 8) {
  return inProcessSwarm("PlannerWorkerSwarm", { agents }, undefined, { opening, parallel });
}

const task = (id: string, agentName: string, depends_on: string[] | null = null, priority = 1): PlannedTask => ({
  id,
  task: `do ${id}`,
  agent: agentName,
  priority,
  depends_on,
});

describe("PlannerWorkerSwarm (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  /** The recorded decisions of a run (`planner` or `judge` lanes), by cycle. */
  async function recorded<T>(runId: string, job: "planner" | "judge"): Promise<T[]> {
    const steps = await h.deps.ds.query(
      "SELECT step_key, output FROM run_steps WHERE run_id = $1 AND step_key LIKE $2 ORDER BY step_key",
      [runId, `c%/${job}#%`],
    );
    return steps.map((s: any) => JSON.parse(s.output.tool_calls[0].function.arguments));
  }

  it("a Planner plans through a forced decision, workers do the tasks, a Judge decides; output Planner, tasks with ids, Judge", async () => {
    const marker = unique("one");
    const names = ["Alpha", "Beta"];
    const res = await postSwarm(h, key, {
      swarm_type: "PlannerWorkerSwarm",
      agents: [agent("Alpha", { model_name: "gpt-4o-mini" }), agent("Beta")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.swarm_type).to.equal("PlannerWorkerSwarm");
    const [plan] = await recorded<Plan>(res.body.job_id, "planner");
    const [verdict] = await recorded<Verdict>(res.body.job_id, "judge");
    const tasks = plan.tasks;
    expect(tasks.length).to.be.at.least(1);

    // Calls per cycle: 1 + tasks + 1.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1 + tasks.length + 1);
    const [planCall, ...rest] = calls;
    const judgeCall = rest.pop()!;
    expect(callerOf(planCall)).to.equal("Planner");
    expect(callerOf(judgeCall)).to.equal("Judge");
    expect([planCall.model, judgeCall.model], "internal agents use the first agent's model").to.deep.equal([
      "gpt-4o-mini",
      "gpt-4o-mini",
    ]);
    expect(planCall.tool_choice).to.deep.equal({ type: "function", function: { name: "plan_tasks" } });
    const item = planCall.tools[0].function.parameters.properties.tasks.items;
    expect(item.properties.agent.enum).to.deep.equal(names);
    expect(item.required).to.deep.equal(["id", "task", "agent", "priority", "depends_on"]);
    expect(judgeCall.tool_choice).to.deep.equal({ type: "function", function: { name: "judge_goal" } });
    expect(judgeCall.tools[0].function.parameters.required).to.deep.equal(["goal_met", "missing"]);
    expect(inputOf(planCall))
      .to.include(marker)
      .and.include("- Alpha: Alpha does its part")
      .and.include("- Beta: Beta does its part");

    const output = res.body.output as { role: string; content: string; task_id?: string; goal_met?: boolean }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Planner", ...tasks.map((t) => t.agent), "Judge"]);
    expect(output[0].content).to.equal(
      renderPlan(
        tasks.map((t) => ({ ...t, depends_on: t.depends_on?.length ? t.depends_on : null })),
        0,
      ),
    );
    tasks.forEach((t, i) => {
      const turn = output[1 + i];
      expect(turn.task_id).to.equal(t.id);
      const call = rest.find((c) => inputOf(c).includes(`Your task (${t.id}):\n${t.task}`))!;
      expect(call, `a call for task ${t.id}`).to.be.an("object");
      expect(callerOf(call)).to.equal(t.agent);
      expect(inputOf(call).startsWith(`Goal:\n${marker}`)).to.equal(true);
      expect(turn.content).to.include(conversationOf(call));
      expect(inputOf(judgeCall)).to.include(`[c1:${t.id}] ${t.agent} (task: ${t.task}):\n${turn.content}`);
    });
    expect(output.at(-1)).to.deep.equal({
      role: "Judge",
      agent: "Judge",
      content: renderVerdict(verdict),
      goal_met: verdict.goal_met,
    });
    expect(res.body.number_of_agents, "Planner and Judge count").to.equal(2 + new Set(tasks.map((t) => t.agent)).size);
  });

  it("max_loops 2: a goal the Judge finds unmet gets a second cycle planning only what is missing; a met goal ends the run", async () => {
    const seen = new Set<boolean>();
    // The simulator's `goal_met` is a deterministic function of the request; runs differ by marker,
    // so both branches show up within a few runs (each run's assertions hold for its own branch).
    for (let attempt = 0; attempt < 20 && seen.size < 2; attempt++) {
      const marker = unique(`loops${attempt}`);
      const res = await postSwarm(h, key, {
        swarm_type: "PlannerWorkerSwarm",
        max_loops: 2,
        agents: [agent("North"), agent("South")],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const plans = await recorded<Plan>(res.body.job_id, "planner");
      const verdicts = await recorded<Verdict>(res.body.job_id, "judge");
      const first = verdicts[0];
      seen.add(first.goal_met);
      const calls = callsMentioning(h, marker);
      const output = res.body.output as { role: string; content: string; task_id?: string; goal_met?: boolean }[];
      const cycleRoles = (plan: Plan) => ["Planner", ...plan.tasks.map((t) => t.agent), "Judge"];
      if (first.goal_met) {
        expect(plans).to.have.length(1);
        expect(calls).to.have.length(plans[0].tasks.length + 2);
        expect(output.map((t) => t.role)).to.deep.equal(cycleRoles(plans[0]));
      } else {
        expect(plans).to.have.length(2);
        expect(verdicts).to.have.length(2);
        expect(calls).to.have.length(plans[0].tasks.length + plans[1].tasks.length + 4);
        expect(output.map((t) => t.role)).to.deep.equal([...cycleRoles(plans[0]), ...cycleRoles(plans[1])]);
        // The second planning sees the finished tasks by reference and what the Judge found missing.
        const secondPlan = calls[plans[0].tasks.length + 2];
        expect(callerOf(secondPlan)).to.equal("Planner");
        const input = inputOf(secondPlan);
        expect(input)
          .to.include(`[c1:${plans[0].tasks[0].id}]`)
          .and.include(output[1].content)
          .and.include(`Missing:\n${first.missing}`)
          .and.include("Plan only what is missing");
        // The second Judge sees every task so far.
        expect(inputOf(calls.at(-1)))
          .to.include(`[c1:${plans[0].tasks[0].id}]`)
          .and.include(`[c2:${plans[1].tasks[0].id}]`);
        expect(output[2].goal_met).to.equal(false);
      }
    }
    expect([...seen].sort()).to.deep.equal([false, true]);
  });

  it("request agents with roles planner and judge take those jobs with their own models and do no tasks", async () => {
    const marker = unique("role");
    const res = await postSwarm(h, key, {
      swarm_type: "PlannerWorkerSwarm",
      agents: [
        agent("Alpha"),
        agent("Plotter", { role: "planner", model_name: "gpt-4o-mini", system_prompt: `Plotter prompt ${marker}` }),
        agent("Arbiter", { role: "judge", model_name: "gpt-4o" }),
        agent("Beta"),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [plan] = await recorded<Plan>(res.body.job_id, "planner");
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(plan.tasks.length + 2);
    expect(callerOf(calls[0])).to.equal("Plotter");
    expect(calls[0].model).to.equal("gpt-4o-mini");
    expect(calls[0].messages[0].content).to.include(`Plotter prompt ${marker}`).and.include("You plan work");
    expect(calls[0].tools[0].function.parameters.properties.tasks.items.properties.agent.enum).to.deep.equal([
      "Alpha",
      "Beta",
    ]);
    expect(callerOf(calls.at(-1))).to.equal("Arbiter");
    expect(calls.at(-1).model).to.equal("gpt-4o");
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal([
      "Planner",
      ...plan.tasks.map((t) => t.agent),
      "Judge",
    ]);
    expect(plan.tasks.map((t) => t.agent)).to.not.include.members(["Plotter", "Arbiter"]);
    expect(res.body.number_of_agents).to.equal(2 + new Set(plan.tasks.map((t) => t.agent)).size);
    expect(await storedStepCount(h, res.body.job_id, ["Planner", "Judge"])).to.equal(0);
  });

  it("runs ready tasks together, a dependent task once its dependencies have results (which it sees), and records in plan order", async () => {
    const marker = unique("deps");
    const latency = 500;
    const { swarm, steps } = localSwarm(
      [
        agent("Slow", { llm_args: { sim_latency_ms: latency } }),
        agent("Quick", { llm_args: { sim_latency_ms: 100 } }),
        agent("Writer"),
        agent("Idle"),
      ],
      marker,
    );
    const earlier = new Map<string, TaskResult>([
      ["c1:old", { ref: "c1:old", id: "old", agent: "Idle", task: "old work", content: `old result ${marker}` }],
    ]);
    // Plan order differs from start and completion order: the dependent task is listed first.
    const tasks = [
      task("merge", "Writer", ["slow", "quick", "c1:old"]),
      task("slow", "Slow"),
      task("quick", "Quick"),
      task("solo", "Writer", ["c1:old"]),
    ];
    const results = await runPlan(swarm, swarm.agents, tasks, 1, earlier);

    const entries = entriesMentioning(h, marker);
    const at = (id: string) => Date.parse(entries.find((e: any) => inputOf(e.body).includes(`Your task (${id})`))!.at);
    const bodyOf = (id: string) => entries.find((e: any) => inputOf(e.body).includes(`Your task (${id})`))!.body;
    expect(entries).to.have.length(4);
    expect(Math.abs(at("slow") - at("quick")), "independent ready tasks start together").to.be.below(latency - 100);
    expect(
      Math.abs(at("solo") - at("slow")),
      "a task whose dependency is from an earlier cycle is ready at once",
    ).to.be.below(latency - 100);
    expect(at("merge") - at("slow"), "the dependent task waits for its slowest dependency").to.be.at.least(
      latency - 20,
    );

    expect(results.map((r) => r.id)).to.deep.equal(["merge", "slow", "quick", "solo"]);
    expect(results.map((r) => r.ref)).to.deep.equal(["c2:merge", "c2:slow", "c2:quick", "c2:solo"]);
    results.forEach((r) => expect(r.content).to.include(conversationOf(bodyOf(r.id))));
    const mergeInput = inputOf(bodyOf("merge"));
    expect(mergeInput.startsWith(`Goal:\n${marker}`)).to.equal(true);
    expect(mergeInput).to.include("Your task (merge):\ndo merge");
    expect(mergeInput).to.include(`[c2:slow] Slow (task: do slow):\n${results[1].content}`);
    expect(mergeInput).to.include(`[c2:quick] Quick (task: do quick):\n${results[2].content}`);
    expect(mergeInput).to.include(`[c1:old] Idle (task: old work):\nold result ${marker}`);
    expect(inputOf(bodyOf("slow"))).to.not.include("Results of the tasks it depends on");
    expect(steps.map((s) => s.lane).sort()).to.deep.equal(["c1/t0", "c1/t1", "c1/t2", "c1/t3"]);
  });

  it("with one call at a time, starts ready tasks by priority, then plan order", async () => {
    const marker = unique("priority");
    const { swarm } = localSwarm([agent("One"), agent("Two")], marker, 1);
    const tasks = [
      task("later", "One", null, 3),
      task("after", "Two", ["first"], 1),
      task("first", "Two", null, 1),
      task("tie", "One", null, 3),
    ];
    await runPlan(swarm, swarm.agents, tasks, 0, new Map());
    const order = callsMentioning(h, marker).map((b) => /Your task \(([^)]+)\)/.exec(inputOf(b))![1]);
    expect(order).to.deep.equal(["first", "later", "tie", "after"]);
  });

  it("repairs an invalid plan once (the model sees the cycle), then fails with DECISION_INVALID naming the planner", async () => {
    const marker = unique("repair");
    const { swarm } = localSwarm([agent("Alpha"), agent("Beta")], marker);
    const who = { name: "Planner", model: "gpt-4.1", systemPrompt: `You plan. ${marker}` };
    const names = ["Alpha", "Beta"];
    // The first answer is judged with two extra tasks waiting for each other: a cycle.
    const withCycle = (v: any) => ({ tasks: [...v.tasks, task("x", "Alpha", ["y"]), task("y", "Beta", ["x"])] });
    let attempt = 0;
    const plan = await decide<Plan>(
      swarm,
      who,
      `Goal: ${marker}`,
      planTool(names),
      (v) => planProblem(names, [], attempt++ === 0 ? withCycle(v) : v),
      "c0/planner",
    );
    expect(attempt).to.equal(2);
    expect(planProblem(names, [], plan)).to.equal(null);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(2);
    expect(calls[1].messages.at(-1).content).to.include("the dependencies form a cycle (x -> y -> x)");

    const marker2 = unique("fail");
    const failed: any = await decide(
      localSwarm([agent("Alpha"), agent("Beta")], marker2).swarm,
      who,
      `Goal: ${marker2}`,
      planTool(names),
      (v) => planProblem(names, [], withCycle(v)),
      "c0/planner",
    ).catch((e) => e);
    expect(failed).to.be.instanceOf(DecisionError);
    expect(failed).to.include({ code: "DECISION_INVALID", agent: "Planner" });
    expect(failed.message).to.include("plan_tasks").and.include("the dependencies form a cycle (x -> y -> x)");
    expect(callsMentioning(h, marker2)).to.have.length(2);
  });

  it("answers 400 before any LLM call when the planner and judge agents leave no worker", async () => {
    const marker = unique("noworkers");
    const res = await postSwarm(h, key, {
      swarm_type: "PlannerWorkerSwarm",
      agents: [agent("Plotter", { role: "planner" }), agent("Arbiter", { role: "Judge" })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.include(
      "PlannerWorkerSwarm needs at least one worker besides the agents with role 'planner' or 'judge'",
    );
    expect(callsMentioning(h, marker)).to.have.length(0);
    const one = await postSwarm(h, key, {
      swarm_type: "PlannerWorkerSwarm",
      agents: [agent("Plotter", { role: "planner" }), agent("Doer")],
      task: unique("oneworker"),
    });
    expect(one.status, JSON.stringify(one.body)).to.equal(200);
  });

  it("a retried run replays every step without calling the LLM again", async () => {
    const marker = unique("replay");
    const res = await postSwarm(h, key, {
      swarm_type: "PlannerWorkerSwarm",
      max_loops: 2,
      agents: [agent("One"), agent("Two")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder, made } = await expectReplayWithoutLlm(h, res, plannerWorkerSwarm, marker);
    expect(new Set(stepKeys).size).to.equal(stepKeys.length);
    expect(recorder.replayed).to.equal(made);
  });
});

describe("PlannerWorkerSwarm plans (unit)", () => {
  const workers = ["Alpha", "Beta"];
  const plan = (...tasks: PlannedTask[]) => ({ tasks });

  it("accepts a valid plan, null or empty dependencies, and references to finished tasks of earlier cycles", () => {
    expect(
      planProblem(
        workers,
        [],
        plan(task("a", "Alpha"), task("b", "Beta", ["a"]), { ...task("c", "Beta"), depends_on: [] }),
      ),
    ).to.equal(null);
    expect(planProblem(workers, ["c1:a"], plan(task("a", "Alpha", ["c1:a"])))).to.equal(null);
  });

  it("rejects duplicate ids, unknown dependencies, self-dependencies and cycles", () => {
    expect(planProblem(workers, [], plan(task("a", "Alpha"), task("a", "Beta")))).to.equal(
      "the id 'a' is used by more than one task (ids must be unique)",
    );
    expect(planProblem(workers, ["c1:x"], plan(task("a", "Alpha", ["ghost"])))).to.equal(
      "task 'a' depends on 'ghost', which is neither a task of this plan (a) nor a finished task (c1:x)",
    );
    expect(planProblem(workers, [], plan(task("a", "Alpha", ["a"])))).to.equal("task 'a' depends on itself");
    expect(
      planProblem(
        workers,
        [],
        plan(task("a", "Alpha", ["c"]), task("b", "Beta", ["a"]), task("c", "Beta", ["b"]), task("d", "Alpha")),
      ),
    ).to.equal(
      "the dependencies form a cycle (a -> c -> b -> a); a task can only wait for tasks that do not wait for it",
    );
  });

  it("rejects unknown workers, bad priorities, empty plans, qualified ids and malformed fields", () => {
    expect(planProblem(workers, [], plan(task("a", "Zed")))).to.equal("task 1: 'agent' must be one of Alpha, Beta");
    expect(planProblem(workers, [], plan(task("a", "Alpha", null, 0)))).to.equal(
      "task 1: 'priority' must be an integer from 1 to 5",
    );
    expect(planProblem(workers, [], plan())).to.equal("plan at least one task");
    expect(planProblem(workers, [], plan(task("c1:a", "Alpha")))).to.include(
      "looks like a reference to an earlier cycle's task",
    );
    expect(
      planProblem(workers, [], { tasks: [{ id: "", task: "", agent: "Alpha", priority: 1, depends_on: "a" }] }),
    ).to.equal(
      "task 1 needs a non-empty 'id'; task 1 needs a non-empty 'task'; task 1: 'depends_on' must be null or a list of task ids",
    );
    expect(planProblem(workers, [], { plan: [] })).to.equal("'tasks' must be a list of tasks");
  });

  it("finds cycles, each task's dependency level (the longest chain it waits for), and the start order", () => {
    expect(findCycle([task("a", "A", ["b"]), task("b", "A")])).to.equal(null);
    expect(findCycle([task("a", "A", ["b"]), task("b", "A", ["a"])])).to.deep.equal(["a", "b", "a"]);
    const tasks = [
      task("d", "A", ["b", "c"]),
      task("b", "A", ["a"]),
      task("c", "A", null, 2),
      task("a", "A", null, 3),
      task("e", "A", ["c1:z"]),
    ];
    // The longest chain is a -> b -> d: 3 calls deep.
    expect(dependencyLevels(tasks)).to.deep.equal([2, 1, 0, 0, 0]);
    expect(dependencyLevels([task("a", "A"), task("b", "A")])).to.deep.equal([0, 0]);
    // Level 0 (c priority 2 before a priority 3 and e), level 1 (b), level 2 (d).
    expect(startOrder(tasks).map((i) => tasks[i].id)).to.deep.equal(["e", "c", "a", "b", "d"]);
  });

  it("checks and renders verdicts and plans", () => {
    expect(verdictProblem({ goal_met: true, missing: "" })).to.equal(null);
    expect(verdictProblem({ goal_met: false, missing: " " })).to.equal("say what is missing when the goal is not met");
    expect(verdictProblem({ goal_met: "yes", missing: 3 })).to.equal(
      "'goal_met' must be true or false; 'missing' must be a string",
    );
    expect(renderVerdict({ goal_met: false, missing: "tests" })).to.equal("Goal not met.\nMissing: tests");
    expect(renderVerdict({ goal_met: true, missing: "" })).to.equal("Goal met.");
    expect(renderPlan([task("a", "Alpha"), task("b", "Beta", ["a"], 2)], 1)).to.equal(
      "Plan (cycle 2):\n- [a] Alpha, priority 1: do a\n- [b] Beta, priority 2, after a: do b",
    );
  });
});

describe("PlannerWorkerSwarm plans a model could make enormous (unit)", () => {
  const workers = ["Alpha", "Beta"];

  it("refuses a plan of thousands of tasks, or a task depending on thousands, at once and in a few words", () => {
    const many = (n: number, depends: (i: number) => string[] | null) =>
      Array.from({ length: n }, (_, i) => task(`t${i}`, "Alpha", depends(i)));
    const started = performance.now();
    const huge = planProblem(workers, [], { tasks: many(16_000, () => ["zz"]) });
    expect(huge).to.equal("plan at most 100 tasks (got 16000); combine related work into one task");
    const chain = planProblem(workers, [], {
      tasks: [task("a", "Alpha", Array(200_000).fill("b")), task("b", "Beta")],
    });
    expect(chain).to.equal("task 1: 'depends_on' may name at most 100 tasks");
    expect(performance.now() - started, "ms").to.be.below(500);
  });

  it("names the first 20 problems and counts the rest, so a repair message stays short", () => {
    const problem = planProblem(workers, [], { tasks: Array.from({ length: 100 }, (_, i) => task(`t${i}`, "Zed")) });
    expect(problem).to.match(/; and 80 more$/);
    expect(problem!.split("; ")).to.have.length(21);
  });
});
