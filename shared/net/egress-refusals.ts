import { logger } from "../logger";
import { countEgressRefusal } from "../metrics/web";
import type { EgressRefusedError } from "./egress-policy";

/**
 * Counts refusals of the egress policy and logs each one's real reason (the host was loopback,
 * private, did not resolve, did not resolve in time…) for the operator. Answers and run errors
 * only ever carry the refusal's message, which is the same whatever the reason.
 */
export function noteEgressRefusals(
  where: Parameters<typeof countEgressRefusal>[0],
  refusals: readonly EgressRefusedError[],
): void {
  if (refusals.length === 0) return;
  countEgressRefusal(where);
  for (const { host, reason } of refusals) logger.info({ where, host, reason }, "egress refused");
}
