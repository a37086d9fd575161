import { parseJsonObject, type HttpTarget } from "../client/http-target";
import { directTarget } from "./agent-completion-targets";
import { swarmBody, type SwarmShape } from "./swarm-body";

/** The swarm the overhead and concurrency scenarios send: three agents in parallel, one round (depth 1). */
export const CONCURRENT_SWARM = {
  type: "ConcurrentWorkflow",
  shape: { agents: 3, loops: 1 } satisfies SwarmShape,
  depth: 1,
};

/** `CONCURRENT_SWARM` through `POST /v1/swarm/completions`, each LLM call waiting `latencyMs`. */
export function swarmServiceTarget(apiUrl: string, apiKey: string, latencyMs: number, tag = "bench"): HttpTarget {
  return {
    name: "service",
    url: `${apiUrl}/v1/swarm/completions`,
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(swarmBody(CONCURRENT_SWARM.type, CONCURRENT_SWARM.shape, tag, latencyMs)),
    checkBody(body) {
      const json = parseJsonObject(body);
      const output = json?.output;
      return json?.status === "success" && Array.isArray(output) && output.length >= CONCURRENT_SWARM.shape.agents
        ? null
        : `swarm answer lacks status "success" and one output per agent: ${body.slice(0, 300)}`;
    },
  };
}

/** The same swarm's LLM calls straight to the simulator: one call per agent, all at once. */
export function swarmDirectTarget(simulatorUrl: string): HttpTarget {
  return { ...directTarget(simulatorUrl), fanOut: CONCURRENT_SWARM.shape.agents };
}
