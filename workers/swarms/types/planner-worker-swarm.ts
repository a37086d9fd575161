import { agentName } from "../../agents/handoffs";
import { jobHolder, jobTurn, roleAgent } from "../internal-agent";
import { decide } from "../structured-decision";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { PLAN_TOOL, PLANNER, planProblem, planTool, renderPlan, type Plan } from "./planner-worker-plan";
import { resultBlock, runPlan, type TaskResult } from "./planner-worker-tasks";
import { JUDGE, JUDGE_TOOL, renderVerdict, verdictProblem, verdictTool, type Verdict } from "./planner-worker-verdict";

const PLANNER_JOB =
  "You plan work for a team of agents. Split the goal into concrete tasks, give each a short unique id, a priority " +
  "and the ids of the tasks whose results it needs, and assign each to the worker best suited to it.";
const JUDGE_JOB =
  "You judge whether a team's results meet the goal it was given, and say precisely what is still missing when they do not.";

/**
 * PlannerWorkerSwarm (docs/swarm-types.md): each cycle a Planner (the request agent with role
 * `planner`, else internal) splits the goal into tasks with ids, priorities and dependencies,
 * assigned to workers, through a validated structured decision (no unknown or cyclic
 * dependencies); workers run ready tasks in parallel in dependency order; a Judge (role `judge`,
 * else internal) decides whether the goal is met. Up to L cycles, each planning only what is
 * missing. Agents taking the planner or judge job do no tasks. Calls per cycle 1+tasks+1; depth
 * per cycle 2+longest dependency chain.
 */
export const plannerWorkerSwarm: SwarmTypeRunner<"PlannerWorkerSwarm"> = {
  name: "PlannerWorkerSwarm",
  async run(swarm) {
    const planningAgent = roleAgent(swarm, "planner");
    const judgingAgent = roleAgent(swarm, "judge");
    const workers = swarm.agents.filter((a) => a !== planningAgent && a !== judgingAgent);
    const workerNames = workers.map(agentName);
    const planner = jobHolder(swarm, "planner", PLANNER, PLANNER_JOB, `planning the work of ${workerNames.join(", ")}`);
    const judge = jobHolder(swarm, "judge", JUDGE, JUDGE_JOB, `judging the work of ${workerNames.join(", ")}`);
    const team = `Workers:\n${teamList(workers)}`;
    const tool = planTool(workerNames);

    const finished = new Map<string, TaskResult>();
    let missing: string | null = null;
    for (let cycle = 0; cycle < swarm.loops; cycle++) {
      const done = [...finished.values()];
      const planInput = [
        `Goal:\n${swarm.opening}`,
        team,
        ...(missing === null
          ? [`Plan the tasks with ${PLAN_TOOL}.`]
          : [
              `Finished tasks (refer to them in depends_on by their reference in brackets):\n${done.map(resultBlock).join("\n\n")}`,
              `The ${JUDGE} found the goal not yet met. Missing:\n${missing}`,
              `Plan only what is missing, with ${PLAN_TOOL}.`,
            ]),
      ].join("\n\n");
      const refs = [...finished.keys()];
      const plan = await decide<Plan>(
        swarm,
        planner,
        planInput,
        tool,
        (value) => planProblem(workerNames, refs, value),
        `c${cycle}/planner`,
      );
      const tasks = plan.tasks.map((t) => ({ ...t, depends_on: t.depends_on?.length ? t.depends_on : null }));
      swarm.conversation.add(jobTurn(PLANNER, planner.name, renderPlan(tasks, cycle)));

      const results = await runPlan(swarm, workers, tasks, cycle, finished);
      for (const result of results) {
        swarm.conversation.add({ role: result.agent, content: result.content, task_id: result.id });
        finished.set(result.ref, result);
      }

      const judgeInput = [
        `Goal:\n${swarm.opening}`,
        `Results of every task so far:\n${[...finished.values()].map(resultBlock).join("\n\n")}`,
        `Decide with ${JUDGE_TOOL} whether the goal is met.`,
      ].join("\n\n");
      const verdict = await decide<Verdict>(swarm, judge, judgeInput, verdictTool(), verdictProblem, `c${cycle}/judge`);
      swarm.conversation.add(jobTurn(JUDGE, judge.name, renderVerdict(verdict), { goal_met: verdict.goal_met }));
      if (verdict.goal_met) break;
      missing = verdict.missing.trim();
    }
    return swarm.conversation.turns;
  },
};
