import type { PromptedAgent } from "../internal-agent";
import type { SwarmRun } from "../swarm-run";

/**
 * The director with the request's `director_settings` applied (docs/swarm-types.md
 * HierarchicalSwarm): `temperature` and `max_tokens` replace its own, every other key is a provider
 * option added over its `llm_args` (an internal director's being the swarm's, as for every internal
 * agent). Without settings, the director is unchanged.
 */
export function withDirectorSettings(swarm: SwarmRun, director: PromptedAgent): PromptedAgent {
  const settings = swarm.request.director_settings;
  if (!settings || !Object.keys(settings).length) return director;
  const { temperature, max_tokens: maxTokens, ...options } = settings;
  const { spec } = director;
  const ownArgs = spec.role === "internal" ? (spec.llm_args ?? swarm.internalLlmArgs) : spec.llm_args;
  return {
    ...director,
    spec: {
      ...spec,
      ...(temperature != null ? { temperature } : {}),
      ...(maxTokens != null ? { max_tokens: maxTokens } : {}),
      llm_args: Object.keys(options).length ? { ...ownArgs, ...options } : ownArgs,
    },
  };
}
