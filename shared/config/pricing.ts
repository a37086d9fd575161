import Joi from "joi";
import { defineDomain, fraction, money, num, str } from "./setting";

const hour = Joi.number().integer().min(0).max(23);

/** What a run costs its caller: token, embedding, agent, image and MCP-call prices and the discounts on them. */
export const pricing = defineDomain(
  "Pricing",
  {
    PRICE_INPUT_PER_MTOK: num(money.default(6.5), "dollars per million input tokens"),
    PRICE_OUTPUT_PER_MTOK: num(money.default(18.5), "dollars per million output tokens"),
    PRICE_EMBEDDING_PER_MTOK: num(money.default(0.13), "dollars per million input tokens of an embeddings request"),
    PRICE_PER_AGENT: num(money.default(0.01), "dollars per agent"),
    PRICE_PER_IMAGE: num(money.default(0.25), "dollars per image"),
    PRICE_PER_MCP_CALL: num(money.default(0.1), "dollars per MCP tool call"),
    NIGHT_DISCOUNT: num(fraction.default(0.5), "night-time discount on token costs (swarm completions)"),
    NIGHT_TIMEZONE: str(Joi.string().default("America/Los_Angeles"), "the time zone night is reckoned in"),
    NIGHT_START_HOUR: num(hour.default(20), "hour the night discount starts"),
    NIGHT_END_HOUR: num(hour.default(6), "hour the night discount ends"),
    FLEX_TOKEN_DISCOUNT: num(fraction.default(0.25), 'share of token costs taken off `service_tier: "flex"` runs'),
  },
  (env) => ({
    pricing: {
      inputPerMTok: env("PRICE_INPUT_PER_MTOK"),
      outputPerMTok: env("PRICE_OUTPUT_PER_MTOK"),
      embeddingPerMTok: env("PRICE_EMBEDDING_PER_MTOK"),
      perAgent: env("PRICE_PER_AGENT"),
      perImage: env("PRICE_PER_IMAGE"),
      perMcpCall: env("PRICE_PER_MCP_CALL"),
      nightDiscount: env("NIGHT_DISCOUNT"),
      flexDiscount: env("FLEX_TOKEN_DISCOUNT"),
      nightTimezone: env("NIGHT_TIMEZONE"),
      nightStartHour: env("NIGHT_START_HOUR"),
      nightEndHour: env("NIGHT_END_HOUR"),
    },
  }),
);
