import type { SwarmTurn } from "../../../shared/contracts/swarm-request";
import { contentText } from "../../../shared/swarms/opening";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";

/**
 * BatchedGridWorkflow: every agent on every task of `tasks`, all pairs in parallel; with
 * `max_loops` > 1 each pair refines its own previous answer. Output is in (round, task, agent)
 * order and each turn carries `task_index`. Calls N·T·L, depth L. The same grid runs
 * `POST /v1/batched-grid-workflow/completions`, whose `imgs[t]` goes with task t (`taskImages`).
 */
export const batchedGridWorkflow: SwarmTypeRunner<"BatchedGridWorkflow"> = {
  name: "BatchedGridWorkflow",
  run: (swarm) => runGrid(swarm),
};

/** The grid of `swarm.request.tasks` × `swarm.agents` (see `batchedGridWorkflow`); its turns. */
export async function runGrid(swarm: SwarmRun, taskImages: readonly string[] = []): Promise<SwarmTurn[]> {
  const tasks = swarm.request.tasks ?? [];
  const pairs = tasks.flatMap((task, t) => swarm.agents.map((agent, a) => ({ task, t, agent, a })));
  // A pair's input is its task after the run's opening (`messages`, and `task` if also given),
  // so context the client sent reaches every cell instead of being dropped.
  const cellTask = (task: string) => [swarm.opening, task].filter((part) => part.trim()).join("\n\n");
  // Each pair runs its rounds as one chain: a fast pair need not wait for the slowest cell of
  // a round, and the depth stays L.
  const answers = await swarm.parallel(pairs, async ({ task, t, agent, a }) => {
    const rounds: unknown[] = [];
    for (let loop = 0; loop < swarm.loops; loop++) {
      const input =
        loop === 0
          ? cellTask(task)
          : `${cellTask(task)}\n\nYour previous answer:\n${contentText(rounds[loop - 1])}\n\nReview your previous answer and improve it: fix what is wrong, add what is missing. Reply with the improved answer only.`;
      rounds.push(
        await swarm.turn(agent, input, {
          lane: `l${loop}/t${t}/a${a}`,
          place: `working on task ${t + 1} of ${tasks.length} (every agent of the swarm takes every task)`,
          image: taskImages[t],
        }),
      );
    }
    return rounds;
  });
  const turns: SwarmTurn[] = [];
  for (let loop = 0; loop < swarm.loops; loop++) {
    pairs.forEach(({ t, a }, p) => turns.push({ role: swarm.names[a], content: answers[p][loop], task_index: t }));
  }
  turns.forEach((turn) => swarm.conversation.add(turn));
  return swarm.conversation.turns;
}
