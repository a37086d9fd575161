import type { SwarmTypeRunner } from "../swarm-type-runner";

/** Agents in request order, each seeing the transcript; the chain repeats `max_loops` times. */
export const sequentialWorkflow: SwarmTypeRunner<"SequentialWorkflow"> = {
  name: "SequentialWorkflow",
  async run(swarm) {
    for (let loop = 0; loop < swarm.loops; loop++) {
      for (const [i, agent] of swarm.agents.entries()) {
        const content = await swarm.turn(agent, swarm.conversation.transcript(), { lane: `l${loop}/a${i}` });
        swarm.conversation.add({ role: swarm.names[i], content });
      }
    }
    return swarm.conversation.turns;
  },
};
