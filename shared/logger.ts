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

export const logger = pino({
  level: config.logLevel,
  base: { pid: process.pid },
  redact: { paths: redactPaths, censor: "[redacted]" },
});

export type Logger = pino.Logger;
