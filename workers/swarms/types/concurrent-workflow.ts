import { contentText } from "../conversation";
import type { SwarmType } from "../swarm-type";

/**
 * All agents in parallel for `max_loops` rounds: round 1 on the task, later rounds on the task plus
 * every agent's previous answer. Turns are recorded in agent order, never completion order.
 */
export const concurrentWorkflow: SwarmType = {
  name: "ConcurrentWorkflow",
  async run(swarm) {
    let previous: unknown[] = [];
    for (let loop = 0; loop < swarm.loops; loop++) {
      const input =
        loop === 0
          ? swarm.opening
          : [
              swarm.opening,
              "Answers of the previous round:",
              ...previous.map((c, i) => `${swarm.names[i]}: ${contentText(c)}`),
            ].join("\n\n");
      previous = await swarm.parallel(swarm.agents, (agent, i) => swarm.turn(agent, input, { lane: `l${loop}/a${i}` }));
      previous.forEach((content, i) => swarm.conversation.add({ role: swarm.names[i], content }));
    }
    return swarm.conversation.turns;
  },
};
