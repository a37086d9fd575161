import { logger } from "./logger";

/** Set once the process has been told to stop: its readiness probe answers 503 from then on. */
let shuttingDown = false;

/** Whether this process received SIGINT or SIGTERM and is draining. */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

/**
 * Runs `steps` once on SIGINT or SIGTERM, then exits; exits with 1 when they take longer than
 * `timeoutMs` (a stuck connection must not keep a deploy waiting forever).
 */
export function onShutdownSignal(what: string, timeoutMs: number, steps: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    shuttingDown = true;
    logger.info({ signal }, `${what} stopping`);
    const force = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, timeoutMs);
    force.unref();
    try {
      await steps();
      process.exit(0);
    } catch (err) {
      logger.error({ err: err instanceof Error ? err.message : err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}
