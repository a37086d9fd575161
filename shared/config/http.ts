import Joi from "joi";
import { defineDomain, ms, num, optionalStr, port, str } from "./setting";

/** Where the web process listens, the public addresses of its two apps, and its request limits. */
export const http = defineDomain(
  "HTTP",
  {
    HOST: str(Joi.string().default("127.0.0.1"), "interface the web process listens on (`0.0.0.0` in containers)"),
    PORT: num(port.default(8080), "execution API port"),
    PLATFORM_PORT: num(port.default(8081), "platform port"),
    PUBLIC_BASE_URL: optionalStr(Joi.string().uri(), "public address of the execution API"),
    PLATFORM_URL: optionalStr(
      Joi.string().uri(),
      "public address of the platform (used in `how_to_get_key` and listing URLs)",
    ),
    TRUSTED_PROXY_HOPS: num(
      Joi.number().integer().min(0).max(10).default(0),
      "how many proxies of the operator's stand in front of the web process; their `X-Forwarded-*` headers are believed (a client's address is the one the outermost of them saw), and with 0 none are, so no client can pick the address its sign-in attempts are counted under",
    ),
    BODY_LIMIT: str(
      Joi.string()
        .pattern(/^\d+(kb|mb)$/i)
        .default("10mb"),
      "largest accepted JSON body",
    ),
    BODY_READ_TIMEOUT_MS: num(
      ms.default(60_000),
      "longest a client may take to send a request body once its request is admitted, plus a second per 64 KB it announces; then 408 and the connection closes",
    ),
    SYNC_WAIT_MS: num(
      ms.default(300_000),
      "longest a synchronous request waits before answering 504 with the `job_id`",
    ),
    HEARTBEAT_MS: num(
      ms.default(15_000),
      "how often a held response shows it is alive while it has nothing else to send: a `: ping` comment on a stream, a `102 Processing` on a synchronous wait",
    ),
    EVENTS_POLL_MS: num(
      ms.default(1_000),
      "how often a web process reads the steps of the runs not streamed that its `GET /v1/jobs/{job_id}/events` clients follow (one query for all of them)",
    ),
    SHUTDOWN_TIMEOUT_MS: num(ms.default(15_000), "graceful-shutdown limit before a forced exit"),
  },
  (env) => ({
    http: {
      host: env("HOST"),
      port: env("PORT"),
      platformPort: env("PLATFORM_PORT"),
      publicBaseUrl: env("PUBLIC_BASE_URL") ?? `http://localhost:${env("PORT")}`,
      platformUrl: env("PLATFORM_URL") ?? `http://localhost:${env("PLATFORM_PORT")}`,
      trustedProxyHops: env("TRUSTED_PROXY_HOPS"),
      bodyLimit: env("BODY_LIMIT"),
      bodyReadTimeoutMs: env("BODY_READ_TIMEOUT_MS"),
      syncWaitMs: env("SYNC_WAIT_MS"),
      heartbeatMs: env("HEARTBEAT_MS"),
      eventsPollMs: env("EVENTS_POLL_MS"),
      shutdownTimeoutMs: env("SHUTDOWN_TIMEOUT_MS"),
    },
  }),
);
