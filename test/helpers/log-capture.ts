import pino from "pino";
import { logger } from "../../shared/logger";

/** Log lines written through the root logger (and every child of it) while captured. */
export interface CapturedLogs {
  lines: Record<string, unknown>[];
  /** Puts the logger's own destination and level back. */
  stop(): void;
}

/**
 * Captures what the service logs at `info` and above, in-process (the harness runs the web apps
 * and the workers in the test's process): the root logger's destination is swapped for one that
 * keeps the parsed JSON lines, and its level is lowered from the tests' `silent`. Children read
 * both through their prototype, so lines of every request and job are caught.
 */
export function captureLogs(): CapturedLogs {
  const target = logger as unknown as Record<symbol, unknown>;
  const original = target[pino.symbols.streamSym];
  const level = logger.level;
  const lines: Record<string, unknown>[] = [];
  target[pino.symbols.streamSym] = { write: (line: string) => lines.push(JSON.parse(line)) };
  logger.level = "info";
  return {
    lines,
    stop() {
      target[pino.symbols.streamSym] = original;
      logger.level = level;
    },
  };
}
