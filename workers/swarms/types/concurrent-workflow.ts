import type { SwarmTypeRunner } from "../swarm-type-runner";
import { answersByAgent } from "../turn-inputs";

/**
 * All agents in parallel for `max_loops` rounds: round 1 on the task, later rounds on the task plus
 * every agent's previous answer. Turns are recorded in agent order, never completion order.
 */
export const concurrentWorkflow: SwarmTypeRunner<"ConcurrentWorkflow"> = {
  name: "ConcurrentWorkflow",
  async run(swarm) {
    let previous: unknown[] = [];
    for (let loop = 0; loop < swarm.loops; loop++) {
      const input =
        loop === 0
          ? swarm.opening
          : [swarm.opening, "Answers of the previous round:", ...answersByAgent(swarm.names, previous)].join("\n\n");
      previous = await swarm.parallel(swarm.agents, (agent, i) => swarm.turn(agent, input, { lane: `l${loop}/a${i}` }));
      previous.forEach((content, i) => swarm.conversation.add({ role: swarm.names[i], content }));
    }
    return swarm.conversation.turns;
  },
};
