import type { ServiceStack } from "../stack/service-stack";
import { measureSequential } from "./closed-loop";
import type { HttpTarget } from "./http-target";

/**
 * Sends `target` once and throws a readable error unless it answers 2xx with a body that passes
 * its check. Run before measuring: a benchmark of a broken endpoint only measures how fast it
 * fails. Gives up early if a process of `stack` dies while we wait (e.g. a crashing worker, which
 * would otherwise leave the request waiting for a job nobody runs).
 */
export async function preflight(target: HttpTarget, stack: ServiceStack): Promise<void> {
  const someoneDied = Promise.race(stack.processes.map((p) => p.exited)).then(() => null);
  const result = await Promise.race([measureSequential(target, Infinity, 1), someoneDied]);
  if (!result) {
    stack.assertAlive();
    throw new Error("a child process exited during the pre-flight request");
  }
  if (result.latencyMs.count === 1) return;
  throw new Error(`pre-flight ${target.method} ${target.url} failed: ${result.problems[0] ?? "no answer"}`);
}
