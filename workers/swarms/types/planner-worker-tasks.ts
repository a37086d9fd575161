import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import type { SwarmRun } from "../swarm-run";
import { dependencies, PLANNER, taskRef, type PlannedTask } from "./planner-worker-plan";

/** A finished task, as later cycles, dependents and the judge read it. */
export interface TaskResult {
  /** How later cycles refer to it: `c<cycle>:<id>` (cycle 1-based). */
  ref: string;
  id: string;
  agent: string;
  task: string;
  content: unknown;
}

/**
 * Each task's dependency level: the longest chain of this plan's tasks it waits for (0 when it
 * waits for none of them; the plan's depth in calls is the highest level + 1).
 */
export function dependencyLevels(tasks: PlannedTask[]): number[] {
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const level = new Array<number>(tasks.length);
  const levelOf = (i: number): number =>
    (level[i] ??= Math.max(
      0,
      ...dependencies(tasks[i])
        .filter((d) => index.has(d))
        .map((d) => levelOf(index.get(d)!) + 1),
    ));
  return tasks.map((_, i) => levelOf(i));
}

/**
 * The order tasks are started in: by dependency level, then priority, then plan order. Every task
 * comes after the tasks it depends on, so a task waiting for its dependencies never holds back one
 * that could run.
 */
export function startOrder(tasks: PlannedTask[]): number[] {
  const levels = dependencyLevels(tasks);
  return tasks.map((_, i) => i).sort((a, b) => levels[a] - levels[b] || tasks[a].priority - tasks[b].priority || a - b);
}

/** A finished task as a block of text, as its dependents, later cycles, the planner and the judge read it. */
export function resultBlock(result: TaskResult): string {
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
