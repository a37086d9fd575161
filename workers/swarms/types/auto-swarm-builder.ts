import { BUILDER, designSwarm } from "../builder/design-swarm";
import { builtRequest, renderSpec } from "../builder/swarm-spec";
import { internalAgentModel, jobTurn } from "../internal-agent";
import type { RunnerOf, SwarmTypeRunner } from "../swarm-type-runner";
import { runChosenType } from "./chosen-type";

/**
 * AutoSwarmBuilder: the Builder designs a swarm (`designSwarm`: a structured decision validated
 * against the request rules, repaired once), then the generated swarm runs as a run derived from
 * this one (its steps under `swarm/`). Output: the Builder turn (the spec in words and as `spec`),
 * then the generated swarm's turns; the response's `swarm_type` is the generated type, as for
 * `auto`. Calls 1+that swarm's (2+ when the spec is repaired). `runnerOf` gives the generated type's runner.
 */
export function autoSwarmBuilderRunner(runnerOf: RunnerOf): SwarmTypeRunner<"AutoSwarmBuilder"> {
  return {
    name: "AutoSwarmBuilder",
    async run(swarm) {
      const model = internalAgentModel(swarm, "builder");
      const { spec, agents } = await designSwarm(swarm, { model, llmArgs: swarm.internalLlmArgs });
      swarm.conversation.add(jobTurn(BUILDER, BUILDER, renderSpec(spec), { spec }));
      // The response names the type that ran, as `auto` does; the Builder turn keeps the design.
      swarm.ranType = spec.swarm_type;
      const built = swarm.derive("swarm", {
        swarmType: spec.swarm_type,
        agents,
        request: builtRequest(swarm.request, spec, agents),
      });
      return runChosenType(swarm, runnerOf(spec.swarm_type), built);
    },
  };
}
