import Joi from "joi";
import { timestamp } from "./response-fields";

/** `GET /v1/webhooks/secret` and `POST /v1/webhooks/secret/rotate`: the account's webhook signing secret. */
export const webhookSecretSchema = Joi.object({
  secret: Joi.string()
    .pattern(/^whsec_/)
    .allow(null)
    .required()
    .description("The whole secret (`whsec_…`), only in the first answer that shows it; null afterwards"),
  masked: Joi.string().required().description("The secret's first characters, to tell which one a receiver holds"),
  created_at: timestamp.required(),
  previous_expires_at: timestamp
    .allow(null)
    .required()
    .description("Until when the secret a rotation replaced still signs deliveries beside this one; null otherwise"),
}).id("WebhookSecret");

/** A run's webhook on `GET /v1/jobs/{job_id}` (never in the delivered payload). */
export const webhookStateSchema = Joi.object({
  url: Joi.string().required().description("The run's `webhook_url`, without its query (which may carry a token)"),
  status: Joi.valid("waiting", "pending", "delivered", "failed")
    .required()
    .description(
      "`waiting` while the run has not ended, `pending` while a delivery is due or waits for a retry, then `delivered` or `failed`",
    ),
  attempts: Joi.array()
    .items(
      Joi.object({
        at: timestamp.required(),
        status_code: Joi.number().integer().description("The receiver's HTTP status"),
        error: Joi.string().description("Why no answer came (time-out, connection refused, egress policy)"),
      }).id("WebhookAttempt"),
    )
    .required(),
  next_attempt_at: timestamp.allow(null).required(),
}).id("WebhookState");
