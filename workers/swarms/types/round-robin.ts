import type { SwarmTypeRunner } from "../swarm-type-runner";

/**
 * `max_loops` rounds in which the agents speak in request order. Each turn's input is a short
 * header (the round, who spoke just before, who speaks just after) followed by the transcript, so
 * an agent can build on the previous speaker and hand over to the next.
 */
export const roundRobin: SwarmTypeRunner<"RoundRobin"> = {
  name: "RoundRobin",
  async run(swarm) {
    const n = swarm.agents.length;
    const place = `taking turns in a round robin (${swarm.names.join(" → ")})`;
    for (let round = 0; round < swarm.loops; round++) {
      for (const [i, agent] of swarm.agents.entries()) {
        // Neighbours wrap across rounds: the first speaker of round 2 follows the last of round 1.
        const first = round === 0 && i === 0;
        const last = round === swarm.loops - 1 && i === n - 1;
        const before = first ? "nobody, you open the discussion" : swarm.names[(i - 1 + n) % n];
        const after = last ? "nobody, you close the discussion" : swarm.names[(i + 1) % n];
        const header = `Round ${round + 1} of ${swarm.loops}. Before you: ${before}. After you: ${after}.`;
        const content = await swarm.turn(agent, `${header}\n\n${swarm.conversation.transcript()}`, {
          lane: `l${round}/a${i}`,
          place,
        });
        swarm.conversation.add({ role: swarm.names[i], content });
      }
    }
    return swarm.conversation.turns;
  },
};
