import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { config } from "./config";

/**
 * The root logger. Secrets are removed by configuration (redaction paths), not by remembering to
 * leave them out at each call site.
 */
const redactPaths = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  "req.headers.cookie",
  "*.apiKey",
  "*.api_key",
  "*.private_key",
  "*.privateKey",
  "*.password",
  "*.authorization_token",
  "*.secret",
];

/**
 * What joins a request's lines to its run's: the request id (`reqId`) and, once the run exists,
 * its id (`runId`). Every line written inside a request or a job carries them.
 */
export interface LogContext {
  reqId?: string;
  runId?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `fields` on every line it (and whatever it awaits) writes. */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return context.run({ ...fields }, work);
}

/** Adds fields to the lines of the current request or job from now on (the run id, once stored). */
export function addLogContext(fields: LogContext): void {
  const store = context.getStore();
  if (store) Object.assign(store, fields);
}

/** The current request's id, for the job payload: the worker logs it, and uses it for nothing else. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.reqId;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A request id as given (by a caller's header or a job's payload) when it is a short safe string. */
export function safeRequestId(value: unknown): string | undefined {
  return typeof value === "string" && SAFE_REQUEST_ID.test(value) ? value : undefined;
}

/**
 * Readable lines for a person at a terminal: pino-pretty (a dev dependency, resolved only here and
 * only outside production, so the production image never needs it) when `LOG_FORMAT` says
 * `pretty`, or `auto` on a TTY. Anything else, or pino-pretty missing, keeps JSON lines.
 */
function prettyTransport(): pino.DestinationStream | undefined {
  if (config.env === "production" || config.logFormat === "json") return undefined;
  if (config.logFormat === "auto" && !process.stdout.isTTY) return undefined;
  try {
    require.resolve("pino-pretty");
  } catch {
    return undefined;
  }
  return pino.transport({
    target: "pino-pretty",
    options: { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" },
  });
}

export const logger = pino(
  {
    level: config.logLevel,
    base: { pid: process.pid },
    redact: { paths: redactPaths, censor: "[redacted]" },
    // A copy: pino merges the call's own fields into what the mixin returns.
    mixin: () => ({ ...context.getStore() }),
  },
  prettyTransport(),
);

export type Logger = pino.Logger;
