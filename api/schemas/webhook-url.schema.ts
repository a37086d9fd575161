import Joi from "joi";
import { MAX_WEBHOOK_URL_LENGTH } from "../../shared/webhooks/webhook-deliveries";

/**
 * `webhook_url`, the one field every run-starting request shares for being told when its run ends
 * (docs/webhooks.md): spread into each run request schema. Its length, scheme and the egress policy
 * are checked when the run is submitted (`api/spine/webhook-url.ts`: 400, like every refused URL);
 * the schema only bounds what is read at all.
 */
export const webhookUrlField = {
  webhook_url: Joi.string()
    .trim()
    .max(16 * MAX_WEBHOOK_URL_LENGTH)
    .allow(null)
    .description(
      `Where Apiary POSTs the job read, signed as Standard Webhooks says, once the run ends: an https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters (http only to a host EGRESS_ALLOW names) that the egress policy allows; see docs/webhooks.md`,
    ),
};
