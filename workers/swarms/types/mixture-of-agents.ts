import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { answersByAgent } from "../turn-inputs";

/** The task followed by one layer's answers, each attributed to the expert that gave it. */
function withAnswers(swarm: SwarmRun, heading: string, experts: string[], answers: unknown[]): string {
  return [swarm.opening, heading, ...answersByAgent(experts, answers)].join("\n\n");
}

/**
 * The first N−1 agents are experts, the last aggregates. Experts answer in parallel for
 * `max_loops` layers (layer 1 on the task, each later layer on the task plus the previous layer's
 * answers), then the aggregator answers once on the task plus the last layer's answers. Turns are
 * recorded layer by layer in expert order, then the aggregator's.
 */
export const mixtureOfAgents: SwarmTypeRunner<"MixtureOfAgents"> = {
  name: "MixtureOfAgents",
  async run(swarm) {
    // The catalog's minimum (2 agents) is checked before the run; the last agent is always the aggregator.
    const experts = swarm.agents.slice(0, -1);
    const expertNames = swarm.names.slice(0, -1);
    const aggregator = swarm.agents[swarm.agents.length - 1];
    const aggregatorName = swarm.names[swarm.names.length - 1];
    const expertPlace = `one of the experts (${expertNames.join(", ")}) answering in parallel; ${aggregatorName} combines your answers`;

    let previous: unknown[] = [];
    for (let layer = 0; layer < swarm.loops; layer++) {
      const input =
        layer === 0 ? swarm.opening : withAnswers(swarm, "Answers of the previous layer:", expertNames, previous);
      // `parallel` returns results in expert order, so answers stay attributed whatever order they finish in.
      previous = await swarm.parallel(experts, (agent, i) =>
        swarm.turn(agent, input, { lane: `l${layer}/e${i}`, place: expertPlace }),
      );
      previous.forEach((content, i) => swarm.conversation.add({ role: expertNames[i], content }));
    }

    // Only the last layer reaches the aggregator: earlier layers are already folded into it.
    const content = await swarm.turn(aggregator, withAnswers(swarm, "Answers of the experts:", expertNames, previous), {
      lane: "agg",
      place: `the aggregator, combining the answers of ${expertNames.join(", ")} into one final answer`,
    });
    swarm.conversation.add({ role: aggregatorName, content });
    return swarm.conversation.turns;
  },
};
