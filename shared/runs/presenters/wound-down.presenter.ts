import type { WoundDown } from "../../contracts/agent-outcome";

/**
 * The fields a run its budget wound down adds to its endpoint's answer: `status: "incomplete"`,
 * why (`incomplete_details`, after OpenAI's incomplete responses) and each agent's outcome.
 * Nothing for a run that finished.
 */
export function presentWoundDown(incomplete: WoundDown | undefined) {
  if (!incomplete) return {};
  const { reason, limit, message, agents } = incomplete;
  return { status: "incomplete" as const, incomplete_details: { reason, limit, message }, agents };
}
