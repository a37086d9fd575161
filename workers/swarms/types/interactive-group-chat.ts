import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { mentionedAgents } from "./mentions";

/** A speaker's input: the transcript, who can be called on, and whom to answer as. */
function speakerInput(transcript: string, members: string, name: string): string {
  return [
    transcript,
    `Members of this chat (write @Name to ask one of them to answer next):\n${members}`,
    `Respond as ${name} to the conversation above: build on what the others said rather than repeating it, say what you have done and what is still missing, and @mention a member only when you need their input.`,
  ].join("\n\n");
}

/**
 * InteractiveGroupChat: the task addresses agents by `@Name`, and only those answer, in order of
 * mention (every agent, in request order, when the task mentions none). A reply that mentions
 * `@Name` calls that agent (addressed by the task or not) to answer next, ahead of the rest, in
 * order of mention. Each agent speaks at most once per round, so a round ends after at most N
 * turns; `max_loops` rounds run, each starting again from the addressed agents on the whole
 * transcript. Calls and depth: between A·L and N·L (A = agents addressed). Output: one turn per
 * reply, in speaking order, under the agent's name.
 */
export const interactiveGroupChat: SwarmTypeRunner<"InteractiveGroupChat"> = {
  name: "InteractiveGroupChat",
  async run(swarm) {
    const mentioned = mentionedAgents(swarm.opening, swarm.names);
    const addressed = mentioned.length ? mentioned : [...swarm.agents.keys()];
    const members = teamList(swarm.agents);
    const place = `in an interactive group chat with ${swarm.names.join(", ")}; write @Name to ask a member to answer next`;
    for (let round = 0; round < swarm.loops; round++) {
      const spoken = new Set<number>();
      let queue = [...addressed];
      while (queue.length) {
        const i = queue.shift()!;
        if (spoken.has(i)) continue;
        // Each agent speaks at most once per round, so the agent index keys the turn deterministically.
        const content = await swarm.turn(
          swarm.agents[i],
          speakerInput(swarm.conversation.transcript(), members, swarm.names[i]),
          { lane: `l${round}/a${i}`, place },
        );
        swarm.conversation.add({ role: swarm.names[i], content });
        spoken.add(i);
        // Tool-call lists are data, not speech: only text can call on another member.
        if (typeof content !== "string") continue;
        const called = mentionedAgents(content, swarm.names).filter((k) => !spoken.has(k));
        queue = [...called, ...queue.filter((k) => !called.includes(k))];
      }
    }
    return swarm.conversation.turns;
  },
};
