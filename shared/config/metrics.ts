import Joi from "joi";
import { defineDomain, num, optionalStr, port, str } from "./setting";

/** Who may read the Prometheus metrics, and where each worker process serves its metrics and liveness. */
export const metrics = defineDomain(
  "Metrics",
  {
    METRICS_TOKEN: optionalStr(
      Joi.string().min(32).allow(""),
      "bearer token (32+ characters) `/metrics` requires (web and workers); unset: only direct loopback clients may scrape, and the web `/metrics` is 404 in production",
    ),
    WORKER_METRICS_PORT: num(
      port.default(9464),
      "port of a worker process's `/metrics`, `/livez`, `/readyz` and `/health` (`--metrics-port` overrides it per process; `0` picks a free one and logs it)",
    ),
    WORKER_METRICS_HOST: str(
      Joi.string().default("127.0.0.1"),
      "interface the worker metrics port listens on; without `METRICS_TOKEN` it still answers `/metrics` to loopback clients only",
    ),
  },
  (env) => ({
    metrics: {
      token: env("METRICS_TOKEN") || undefined,
      workerPort: env("WORKER_METRICS_PORT"),
      workerHost: env("WORKER_METRICS_HOST"),
    },
  }),
);
