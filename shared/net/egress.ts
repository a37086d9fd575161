import { config } from "../config";
import { createEgressFetch } from "./egress-fetch";
import { EgressPolicy } from "./egress-policy";

export { EgressRefusedError } from "./egress-policy";

/** The process's egress policy for client-given URLs, from `EGRESS_ALLOW`. */
export const egressPolicy = new EgressPolicy({ allow: config.egress.allow });

/** The `fetch` for every request to a client-given URL (MCP servers). */
export const egressFetch = createEgressFetch(egressPolicy);
