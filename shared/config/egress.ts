import Joi from "joi";
import { parseEgressAllow } from "../net/egress-allow";
import { count, defineDomain, ms, num, str } from "./setting";

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

/**
 * The delays between a webhook's attempts, as Standard Webhooks suggests them: 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h after the failed attempt before, so the eighth and last attempt comes
 * about 27.6 hours after the first: more than a day of a receiver's outage loses nothing.
 */
const DEFAULT_RETRY_SCHEDULE_MS = "5000,300000,1800000,7200000,18000000,36000000,36000000";

/** A comma-separated list of delays in milliseconds (at least one). */
const delayList = Joi.string()
  .pattern(/^\s*\d+\s*(,\s*\d+\s*)*$/)
  .default(DEFAULT_RETRY_SCHEDULE_MS);

/**
 * Which non-public addresses client-given URLs (MCP servers, images, webhooks) may reach anyway, and how run
 * webhooks are delivered to the URLs clients give (docs/webhooks.md).
 */
export const egress = defineDomain(
  "Egress and webhooks",
  {
    EGRESS_ALLOW: str(
      egressAllow,
      "comma-separated `host`, `host:port` (IPv6 as `[addr]:port`) or CIDR entries a client-given URL may reach although they are not public; a host entry matches the URL's host as written (not resolved when a request arrives), a CIDR entry the address connected to",
    ),
    WEBHOOK_RETRY_SCHEDULE_MS: str(
      delayList,
      "comma-separated delays (ms) before each retry of a webhook delivery after a failed attempt; the delivery is marked failed after the last",
    ),
    WEBHOOK_TIMEOUT_MS: num(ms.default(10_000), "longest one webhook delivery attempt may take, connection included"),
    WEBHOOK_POLL_MS: num(ms.default(1_000), "how often the webhook sender looks for due deliveries"),
    WEBHOOK_LANES: num(count.max(64).default(4), "webhook deliveries one sender process attempts at once"),
    WEBHOOK_ACCOUNT_LANES: num(
      count.max(64).default(2),
      "most webhook deliveries of one account attempted at once, over every sender: the other lanes stay free for other accounts' deliveries",
    ),
    WEBHOOK_SECRET_GRACE_MS: num(
      ms.default(86_400_000),
      "how long an account's previous webhook secret still signs deliveries (beside the new one) after a rotation",
    ),
  },
  (env) => ({
    /**
     * Client-given URLs the service connects to (MCP servers) reach only public addresses; these
     * hosts and CIDR ranges are allowed anyway. Empty by default, in development too.
     */
    egress: { allow: parseEgressAllow(env("EGRESS_ALLOW")) },
    webhooks: {
      retryScheduleMs: env("WEBHOOK_RETRY_SCHEDULE_MS")
        .split(",")
        .map((delay) => Number(delay.trim())),
      timeoutMs: env("WEBHOOK_TIMEOUT_MS"),
      pollMs: env("WEBHOOK_POLL_MS"),
      concurrency: env("WEBHOOK_LANES"),
      perAccount: env("WEBHOOK_ACCOUNT_LANES"),
      secretGraceMs: env("WEBHOOK_SECRET_GRACE_MS"),
    },
  }),
);
