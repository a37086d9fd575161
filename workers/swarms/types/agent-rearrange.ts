import { parseFlow } from "../../../shared/swarms/flow";
import type { SwarmTypeRunner } from "../swarm-type-runner";

/**
 * The `rearrange_flow` steps in order (`->` between steps, `,` for agents of one step, who run in
 * parallel on the transcript as it stood when the step began); the flow repeats `max_loops` times.
 */
export const agentRearrange: SwarmTypeRunner<"AgentRearrange"> = {
  name: "AgentRearrange",
  async run(swarm) {
    const flow = parseFlow(swarm.request.rearrange_flow ?? "", swarm.names);
    const byName = new Map(swarm.agents.map((agent, i) => [swarm.names[i], agent]));
    for (let loop = 0; loop < swarm.loops; loop++) {
      for (const [s, step] of flow.entries()) {
        const input = swarm.conversation.transcript();
        const answers = await swarm.parallel(step, (name, slot) =>
          swarm.turn(byName.get(name)!, input, { lane: `l${loop}/s${s}/${slot}` }),
        );
        answers.forEach((content, slot) => swarm.conversation.add({ role: step[slot], content }));
      }
    }
    return swarm.conversation.turns;
  },
};
