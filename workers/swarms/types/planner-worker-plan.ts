import { ProblemList } from "../decision-problems";
import { isJsonObject, type DecisionTool } from "../structured-decision";

/** The internal planner's role name: its turns appear under it (docs/swarm-types.md, "Output shapes"). */
export const PLANNER = "Planner";
/** The planning decision's tool name. */
export const PLAN_TOOL = "plan_tasks";

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

/**
 * The most tasks one plan may hold: far more than a swarm's workers can take on in a cycle, and a
 * bound on the checks below (a plan is a model's output, as long as its output limit allows).
 */
const MAX_PLANNED_TASKS = 100;

/** How a task of cycle `cycle` (0-based) is referred to from later cycles. */
export function taskRef(cycle: number, id: string): string {
  return `c${cycle + 1}:${id}`;
}

/** What `taskRef` makes: an id of this form names an earlier cycle's task. */
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
          maxItems: MAX_PLANNED_TASKS,
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

/** The dependencies of a task, as a list. */
export function dependencies(task: Pick<PlannedTask, "depends_on">): string[] {
  return task.depends_on ?? [];
}

/** A dependency cycle among the plan's tasks, as ids `a -> b -> a`, or null when there is none. */
export function findCycle(tasks: Pick<PlannedTask, "id" | "depends_on">[]): string[] | null {
  const ids = new Set(tasks.map((t) => t.id));
  const deps = new Map(tasks.map((t) => [t.id, dependencies(t).filter((d) => ids.has(d))]));
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
  if (!isJsonObject(value) || !Array.isArray(value.tasks)) return "'tasks' must be a list of tasks";
  if (!value.tasks.length) return "plan at least one task";
  if (value.tasks.length > MAX_PLANNED_TASKS)
    return `plan at most ${MAX_PLANNED_TASKS} tasks (got ${value.tasks.length}); combine related work into one task`;
  const problems = new ProblemList();
  const ids = new Set<string>();
  const tasks = value.tasks as unknown[];
  tasks.forEach((task, i) => {
    const at = `task ${i + 1}`;
    if (!isJsonObject(task)) return void problems.add(`${at} must be an object`);
    if (typeof task.id !== "string" || !task.id.trim()) problems.add(`${at} needs a non-empty 'id'`);
    else if (QUALIFIED.test(task.id))
      problems.add(`${at}: the id '${task.id}' looks like a reference to an earlier cycle's task; choose another`);
    else if (ids.has(task.id)) problems.add(`the id '${task.id}' is used by more than one task (ids must be unique)`);
    else ids.add(task.id);
    if (typeof task.task !== "string" || !task.task.trim()) problems.add(`${at} needs a non-empty 'task'`);
    if (typeof task.agent !== "string" || !workers.includes(task.agent))
      problems.add(() => `${at}: 'agent' must be one of ${workers.join(", ")}`);
    if (typeof task.priority !== "number" || !Number.isInteger(task.priority) || task.priority < 1 || task.priority > 5)
      problems.add(`${at}: 'priority' must be an integer from 1 to 5`);
    if (
      task.depends_on !== null &&
      task.depends_on !== undefined &&
      (!Array.isArray(task.depends_on) || task.depends_on.some((d) => typeof d !== "string"))
    ) {
      problems.add(`${at}: 'depends_on' must be null or a list of task ids`);
    } else if (Array.isArray(task.depends_on) && task.depends_on.length > MAX_PLANNED_TASKS) {
      problems.add(`${at}: 'depends_on' may name at most ${MAX_PLANNED_TASKS} tasks`);
    }
  });
  if (problems.size) return problems.text();

  const planned = tasks as PlannedTask[];
  for (const task of planned) {
    for (const dep of dependencies(task)) {
      if (dep === task.id) problems.add(`task '${task.id}' depends on itself`);
      else if (!ids.has(dep) && !earlier.includes(dep)) {
        problems.add(
          () =>
            `task '${task.id}' depends on '${dep}', which is neither a task of this plan (${[...ids].join(", ")})${earlier.length ? ` nor a finished task (${earlier.join(", ")})` : ""}`,
        );
      }
    }
  }
  if (problems.size) return problems.text();
  const cycle = findCycle(planned);
  if (cycle)
    return `the dependencies form a cycle (${cycle.join(" -> ")}); a task can only wait for tasks that do not wait for it`;
  return null;
}

/** The Planner turn's readable text. */
export function renderPlan(tasks: PlannedTask[], cycle: number): string {
  const lines = tasks.map((t) => {
    const deps = dependencies(t);
    return `- [${t.id}] ${t.agent}, priority ${t.priority}${deps.length ? `, after ${deps.join(", ")}` : ""}: ${t.task.trim()}`;
  });
  return [`Plan (cycle ${cycle + 1}):`, ...lines].join("\n");
}
