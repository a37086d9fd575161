import type { SwarmTypeRunner } from "../swarm-type-runner";
import { mentionedAgents } from "./mentions";

/**
 * `max_loops` rounds of discussion in which every agent speaks exactly once, on the transcript.
 * Agents speak in request order, except that a turn mentioning `@AgentName` makes the named agents
 * speak next in that round, in order of mention. Mentions of agents who already spoke this round,
 * of the speaker itself or of unknown names are ignored, so a round always ends after N turns.
 */
export const groupChat: SwarmTypeRunner<"GroupChat"> = {
  name: "GroupChat",
  async run(swarm) {
    const n = swarm.agents.length;
    const place = `in a group chat with ${swarm.names.join(", ")}; write @Name to have that member speak next`;
    for (let round = 0; round < swarm.loops; round++) {
      const spoken = new Set<number>();
      // Agents mentioned and not yet heard this round, next speaker first.
      let called: number[] = [];
      while (spoken.size < n) {
        const i = called.shift() ?? [...swarm.agents.keys()].find((k) => !spoken.has(k))!;
        // Each agent speaks once per round, so the agent index keys the turn deterministically.
        const content = await swarm.turn(swarm.agents[i], swarm.conversation.transcript(), {
          lane: `l${round}/a${i}`,
          place,
        });
        swarm.conversation.add({ role: swarm.names[i], content });
        spoken.add(i);
        // Tool-call lists are data, not speech: only text can hand over the floor.
        if (typeof content !== "string") continue;
        const mentioned = mentionedAgents(content, swarm.names).filter((k) => !spoken.has(k));
        // The latest turn's mentions speak next ("speak next"), ahead of agents called earlier.
        called = [...mentioned, ...called.filter((k) => !mentioned.includes(k))];
      }
    }
    return swarm.conversation.turns;
  },
};
