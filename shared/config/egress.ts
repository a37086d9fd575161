import Joi from "joi";
import { parseEgressAllow } from "../net/egress-allow";
import { defineDomain, str } from "./setting";

/** Comma-separated `host`, `host:port` or CIDR entries (see `parseEgressAllow`). */
const egressAllow = Joi.string()
  .allow("")
  .custom((value: string, helpers) => {
    try {
      parseEgressAllow(value);
      return value;
    } catch (err) {
      return helpers.message({ custom: `{{#label}} ${err instanceof Error ? err.message : String(err)}` });
    }
  })
  .default("");

/** Which non-public addresses client-given URLs (MCP servers) may reach anyway. */
export const egress = defineDomain(
  "Egress",
  {
    EGRESS_ALLOW: str(
      egressAllow,
      "comma-separated `host`, `host:port` (IPv6 as `[addr]:port`) or CIDR entries a client-given URL may reach although they are not public; a host entry matches the URL's host as written (not resolved when a request arrives), a CIDR entry the address connected to",
    ),
  },
  (env) => ({
    /**
     * Client-given URLs the service connects to (MCP servers) reach only public addresses; these
     * hosts and CIDR ranges are allowed anyway. Empty by default, in development too.
     */
    egress: { allow: parseEgressAllow(env("EGRESS_ALLOW")) },
  }),
);
