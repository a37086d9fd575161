import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { AppError } from "../../../shared/errors";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../conversation";
import { internalAgentModel, internalSystemPrompt, roleAgent, type InternalJob } from "../internal-agent";
import { decide, type DecisionMaker, type DecisionTool } from "../structured-decision";
import { swarmSystemPrompt } from "../swarm-prompt";
import type { SwarmRun } from "../swarm-run";
import type { SwarmType } from "../swarm-type";

/** The internal agents' role names: their turns appear under them (SWARM-TYPES.md "Output shapes"). */
export const PLANNER = "Planner";
export const JUDGE = "Judge";
const PLAN_TOOL = "plan_tasks";
const JUDGE_TOOL = "judge_goal";

const PLANNER_JOB =
  "You plan work for a team of agents. Split the goal into concrete tasks, give each a short unique id, a priority " +
  "and the ids of the tasks whose results it needs, and assign each to the worker best suited to it.";
const JUDGE_JOB =
  "You judge whether a team's results meet the goal it was given, and say precisely what is still missing when they do not.";

/** One planned task as the planner gives it (`depends_on` null or empty when it needs nothing). */
export interface PlannedTask {
  id: string;
  task: string;
  agent: string;
  priority: number;
  depends_on: string[] | null;
}

export interface Plan {
  tasks: PlannedTask[];
}

/** A finished task, as later cycles, dependents and the judge read it. */
export interface TaskResult {
  /** How later cycles refer to it: `c<cycle>:<id>` (cycle 1-based). */
  ref: string;
  id: string;
  agent: string;
  task: string;
  content: unknown;
}

export interface Verdict {
  goal_met: boolean;
  missing: string;
}

/** How a task of cycle `cycle` (0-based) is referred to from later cycles. */
export function taskRef(cycle: number, id: string): string {
  return `c${cycle + 1}:${id}`;
}

const QUALIFIED = /^c\d+:/;

/**
 * The planning tool. Worker names are an enum of the real workers. `depends_on` is null when a task
 * needs no other task's result (listed first so that is the default reading of the schema).
 */
export function planTool(workers: string[]): DecisionTool {
  return {
    name: PLAN_TOOL,
    description: "Split the goal into tasks for the workers, with priorities and dependencies.",
    parameters: {
      type: "object",
      properties: {
        tasks: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            properties: {
              id: { type: "string", description: "A short id, unique in this plan (e.g. 'research')" },
              task: { type: "string", description: "What the worker must do, self-contained" },
              agent: { type: "string", enum: workers, description: "The worker's exact name" },
              priority: {
                type: "integer",
                minimum: 1,
                maximum: 5,
                description: "1 is the most urgent; among ready tasks, more urgent ones start first",
              },
              depends_on: {
                anyOf: [{ type: "null" }, { type: "array", items: { type: "string" }, minItems: 1 }],
                description:
                  "Ids of the tasks whose results this task needs: ids of this plan, or references like 'c1:research' to finished tasks of earlier cycles; null when it needs none",
              },
            },
            required: ["id", "task", "agent", "priority", "depends_on"],
            additionalProperties: false,
          },
        },
      },
      required: ["tasks"],
      additionalProperties: false,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The dependencies of a task, as a list. */
export function dependencies(task: Pick<PlannedTask, "depends_on">): string[] {
  return task.depends_on ?? [];
}

/** A dependency cycle among the plan's tasks, as ids `a -> b -> a`, or null when there is none. */
export function findCycle(tasks: Pick<PlannedTask, "id" | "depends_on">[]): string[] | null {
  const deps = new Map(tasks.map((t) => [t.id, dependencies(t).filter((d) => tasks.some((o) => o.id === d))]));
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "visiting") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "visiting");
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * What is wrong with a plan, or null (the `decide` validator): tasks need unique non-empty ids,
 * a task, a real worker, a priority 1–5, and dependencies that exist (ids of this plan, or
 * `earlier` references to finished tasks of earlier cycles), with no task depending on itself and
 * no dependency cycle.
 */
export function planProblem(workers: string[], earlier: string[], value: unknown): string | null {
  if (!isObject(value) || !Array.isArray(value.tasks)) return "'tasks' must be a list of tasks";
  if (!value.tasks.length) return "plan at least one task";
  const problems: string[] = [];
  const ids = new Set<string>();
  const tasks = value.tasks as unknown[];
  tasks.forEach((task, i) => {
    const at = `task ${i + 1}`;
    if (!isObject(task)) return void problems.push(`${at} must be an object`);
    if (typeof task.id !== "string" || !task.id.trim()) problems.push(`${at} needs a non-empty 'id'`);
    else if (QUALIFIED.test(task.id))
      problems.push(`${at}: the id '${task.id}' looks like a reference to an earlier cycle's task; choose another`);
    else if (ids.has(task.id)) problems.push(`the id '${task.id}' is used by more than one task (ids must be unique)`);
    else ids.add(task.id);
    if (typeof task.task !== "string" || !task.task.trim()) problems.push(`${at} needs a non-empty 'task'`);
    if (typeof task.agent !== "string" || !workers.includes(task.agent))
      problems.push(`${at}: 'agent' must be one of ${workers.join(", ")}`);
    if (typeof task.priority !== "number" || !Number.isInteger(task.priority) || task.priority < 1 || task.priority > 5)
      problems.push(`${at}: 'priority' must be an integer from 1 to 5`);
    if (
      task.depends_on !== null &&
      task.depends_on !== undefined &&
      (!Array.isArray(task.depends_on) || task.depends_on.some((d) => typeof d !== "string"))
    ) {
      problems.push(`${at}: 'depends_on' must be null or a list of task ids`);
    }
  });
  if (problems.length) return problems.join("; ");

  const planned = tasks as PlannedTask[];
  for (const task of planned) {
    for (const dep of dependencies(task)) {
      if (dep === task.id) problems.push(`task '${task.id}' depends on itself`);
      else if (!ids.has(dep) && !earlier.includes(dep)) {
        problems.push(
          `task '${task.id}' depends on '${dep}', which is neither a task of this plan (${[...ids].join(", ")})${earlier.length ? ` nor a finished task (${earlier.join(", ")})` : ""}`,
        );
      }
    }
  }
  if (problems.length) return problems.join("; ");
  const cycle = findCycle(planned);
  if (cycle)
    return `the dependencies form a cycle (${cycle.join(" -> ")}); a task can only wait for tasks that do not wait for it`;
  return null;
}

/**
 * The order tasks are started in: by dependency level (the longest chain of this plan's tasks
 * before it), then priority, then plan order. Every task comes after the tasks it depends on, so a
 * task waiting for its dependencies never holds back one that could run.
 */
export function startOrder(tasks: PlannedTask[]): number[] {
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const level = new Array<number>(tasks.length);
  const levelOf = (i: number): number =>
    (level[i] ??= Math.max(
      0,
      ...dependencies(tasks[i])
        .filter((d) => index.has(d))
        .map((d) => levelOf(index.get(d)!) + 1),
    ));
  return tasks
    .map((_, i) => i)
    .sort((a, b) => levelOf(a) - levelOf(b) || tasks[a].priority - tasks[b].priority || a - b);
}

/** The longest chain of dependent tasks in a plan (its depth in calls). */
export function longestChain(tasks: PlannedTask[]): number {
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const memo = new Map<number, number>();
  const chain = (i: number): number => {
    if (!memo.has(i))
      memo.set(
        i,
        1 +
          Math.max(
            0,
            ...dependencies(tasks[i])
              .filter((d) => index.has(d))
              .map((d) => chain(index.get(d)!)),
          ),
      );
    return memo.get(i)!;
  };
  return Math.max(0, ...tasks.map((_, i) => chain(i)));
}

function resultBlock(result: TaskResult): string {
  return `[${result.ref}] ${result.agent} (task: ${result.task.trim()}):\n${contentText(result.content)}`;
}

/**
 * Runs a validated plan: each task starts as soon as every task it depends on has a result, so
 * independent ready tasks run at the same time. A worker sees the goal, its task and the results of
 * its dependencies (`earlier` holds finished tasks of earlier cycles by reference). Results come
 * back in plan order, whatever order the tasks finish in.
 */
export async function runPlan(
  swarm: SwarmRun,
  workers: AgentSpec[],
  tasks: PlannedTask[],
  cycle: number,
  earlier: Map<string, TaskResult>,
): Promise<TaskResult[]> {
  const byName = new Map(workers.map((w) => [agentName(w), w]));
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const settle: ((result: TaskResult | Error) => void)[] = [];
  const finished = tasks.map(
    () =>
      new Promise<TaskResult>((resolve, reject) => {
        settle.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      }),
  );
  // A failed task fails the run through `parallel`; its dependents only need to stop waiting.
  finished.forEach((p) => p.catch(() => undefined));

  const results = await swarm.parallel(startOrder(tasks), async (i) => {
    const task = tasks[i];
    try {
      const needed = await Promise.all(
        dependencies(task).map((dep) =>
          index.has(dep) ? finished[index.get(dep)!] : Promise.resolve(earlier.get(dep)!),
        ),
      );
      const input = [
        `Goal:\n${swarm.opening}`,
        `Your task (${task.id}):\n${task.task.trim()}`,
        ...(needed.length ? [`Results of the tasks it depends on:\n${needed.map(resultBlock).join("\n\n")}`] : []),
      ].join("\n\n");
      const content = await swarm.turn(byName.get(task.agent)!, input, {
        lane: `c${cycle}/t${i}`,
        place: `a worker of the ${PLANNER}'s plan, doing task ${task.id}`,
      });
      const result: TaskResult = {
        ref: taskRef(cycle, task.id),
        id: task.id,
        agent: task.agent,
        task: task.task,
        content,
      };
      settle[i](result);
      return { i, result };
    } catch (err) {
      settle[i](err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  });
  const inPlanOrder = new Array<TaskResult>(tasks.length);
  for (const { i, result } of results) inPlanOrder[i] = result;
  return inPlanOrder;
}

/** The Planner turn's readable text. */
export function renderPlan(tasks: PlannedTask[], cycle: number): string {
  const lines = tasks.map((t) => {
    const deps = dependencies(t);
    return `- [${t.id}] ${t.agent}, priority ${t.priority}${deps.length ? `, after ${deps.join(", ")}` : ""}: ${t.task.trim()}`;
  });
  return [`Plan (cycle ${cycle + 1}):`, ...lines].join("\n");
}

/** The Judge turn's readable text. */
export function renderVerdict(verdict: Verdict): string {
  const missing = verdict.missing.trim();
  return verdict.goal_met ? `Goal met.${missing ? `\nNotes: ${missing}` : ""}` : `Goal not met.\nMissing: ${missing}`;
}

export function verdictTool(): DecisionTool {
  return {
    name: JUDGE_TOOL,
    description: "Decide whether the results meet the goal, and say what is missing when they do not.",
    parameters: {
      type: "object",
      properties: {
        goal_met: { type: "boolean", description: "true when the results fully meet the goal" },
        missing: { type: "string", description: "What is still missing to meet the goal (empty when it is met)" },
      },
      required: ["goal_met", "missing"],
      additionalProperties: false,
    },
  };
}

export function verdictProblem(value: unknown): string | null {
  if (!isObject(value)) return "the arguments must be an object with 'goal_met' and 'missing'";
  const problems: string[] = [];
  if (typeof value.goal_met !== "boolean") problems.push("'goal_met' must be true or false");
  if (typeof value.missing !== "string") problems.push("'missing' must be a string");
  else if (value.goal_met === false && !value.missing.trim())
    problems.push("say what is missing when the goal is not met");
  return problems.length ? problems.join("; ") : null;
}

/** Who takes an internal job: the request agent whose role names it (its own prompt plus the job), else an internal agent. */
function decisionMaker(
  swarm: SwarmRun,
  job: InternalJob,
  label: string,
  prompt: string,
  place: string,
  acting: AgentSpec | undefined,
): DecisionMaker {
  const model = internalAgentModel(swarm, job);
  if (!acting) return { name: label, model, systemPrompt: internalSystemPrompt(swarm, label, prompt, place) };
  const own =
    acting.system_prompt?.trim() || [`You are ${agentName(acting)}.`, acting.description].filter(Boolean).join(" ");
  return {
    name: agentName(acting),
    model,
    systemPrompt: swarmSystemPrompt(
      { ...acting, system_prompt: `${own}\n\n${prompt}` },
      swarm.request,
      swarm.swarmType,
      swarm.names,
      place,
    ),
  };
}

/**
 * PlannerWorkerSwarm (SWARM-TYPES.md): each cycle a Planner (the request agent with role
 * `planner`, else internal) splits the goal into tasks with ids, priorities and dependencies,
 * assigned to workers, through a validated structured decision (no unknown or cyclic
 * dependencies); workers run ready tasks in parallel in dependency order; a Judge (role `judge`,
 * else internal) decides whether the goal is met. Up to L cycles, each planning only what is
 * missing. Agents taking the planner or judge job do no tasks. Calls per cycle 1+tasks+1; depth
 * per cycle 2+longest dependency chain.
 */
export const plannerWorkerSwarm: SwarmType = {
  name: "PlannerWorkerSwarm",
  async run(swarm) {
    const planningAgent = roleAgent(swarm, "planner");
    const judgingAgent = roleAgent(swarm, "judge");
    const workers = swarm.agents.filter((a) => a !== planningAgent && a !== judgingAgent);
    if (!workers.length) {
      throw new AppError(
        400,
        "BAD_REQUEST",
        "PlannerWorkerSwarm needs at least one worker besides the agents with role 'planner' or 'judge'",
      );
    }
    const workerNames = workers.map(agentName);
    const planner = decisionMaker(
      swarm,
      "planner",
      PLANNER,
      PLANNER_JOB,
      `planning the work of ${workerNames.join(", ")}`,
      planningAgent,
    );
    const judge = decisionMaker(
      swarm,
      "judge",
      JUDGE,
      JUDGE_JOB,
      `judging the work of ${workerNames.join(", ")}`,
      judgingAgent,
    );
    const team = `Workers:\n${workers.map((w) => `- ${agentName(w)}${w.description?.trim() ? `: ${w.description.trim()}` : ""}`).join("\n")}`;
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
      swarm.conversation.add({ role: PLANNER, content: renderPlan(tasks, cycle) });

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
      swarm.conversation.add({ role: JUDGE, content: renderVerdict(verdict), goal_met: verdict.goal_met });
      if (verdict.goal_met) break;
      missing = verdict.missing.trim();
    }
    return swarm.conversation.turns;
  },
};
