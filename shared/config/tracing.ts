import Joi from "joi";
import { parseOtlpHeaders } from "../tracing/otlp-headers";
import { defineDomain, num, oneOf, optionalStr, str } from "./setting";

/** An OTLP/HTTP address; empty is unset. */
const endpoint = Joi.string()
  .uri({ scheme: ["http", "https"] })
  .allow("");

const otlpHeaders = Joi.string()
  .allow("")
  .custom((value: string, helpers) => {
    try {
      parseOtlpHeaders(value);
      return value;
    } catch (err) {
      return helpers.message({ custom: `{{#label}} ${err instanceof Error ? err.message : String(err)}` });
    }
  })
  .default("");

/** The samplers the OpenTelemetry specification names for `OTEL_TRACES_SAMPLER` that the SDK provides. */
const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** Where a trace-id ratio sampler's share comes from: the specification's default is all of them. */
const ratio = Joi.number().min(0).max(1).default(1);

/**
 * OpenTelemetry tracing, under the variable names the OpenTelemetry specification gives them. Off
 * unless an endpoint is set: no span is made and nothing is sent (docs/observability.md#tracing).
 */
export const tracing = defineDomain(
  "Tracing",
  {
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalStr(
      endpoint,
      "OTLP/HTTP collector base address (`http://collector:4318`): spans go to its `/v1/traces`. Unset (with the next unset too): tracing is off",
    ),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalStr(
      endpoint,
      "full address spans are posted to (JSON), used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`",
    ),
    OTEL_EXPORTER_OTLP_HEADERS: str(
      otlpHeaders,
      "headers sent with every export, `key=value` pairs separated by commas, values percent-encoded (`authorization=Bearer%20abc`); treat as a secret",
    ),
    OTEL_SERVICE_NAME: optionalStr(
      Joi.string().max(200).allow(""),
      "`service.name` of every process's spans; unset: each process's role, `apiary-web` or `apiary-worker-<queues>` (`apiary-worker-swarm`)",
    ),
    OTEL_TRACES_SAMPLER: oneOf(
      SAMPLERS,
      "parentbased_always_on",
      "which traces are kept: `always_on`, `always_off`, `traceidratio`, or `parentbased_…` of one of them (a client's `traceparent` decides for its request)",
    ),
    OTEL_TRACES_SAMPLER_ARG: num(ratio, "the share of traces (0–1) a `traceidratio` sampler keeps"),
  },
  (env) => {
    const base = env("OTEL_EXPORTER_OTLP_ENDPOINT") || undefined;
    const url = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : null);
    return {
      tracing: {
        /** Where spans are posted; null: tracing is off. */
        url,
        headers: parseOtlpHeaders(env("OTEL_EXPORTER_OTLP_HEADERS")),
        serviceName: env("OTEL_SERVICE_NAME") || undefined,
        sampler: env("OTEL_TRACES_SAMPLER"),
        samplerRatio: env("OTEL_TRACES_SAMPLER_ARG"),
      },
    };
  },
);
