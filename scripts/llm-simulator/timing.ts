import type { ServerResponse } from "node:http";

/**
 * Runs `fn` once `performance.now()` reaches `deadline` (immediately, synchronously, if it already
 * has), unless the response closes first. Timers can fire a little early, so the deadline is
 * re-checked: callers promise clients "at least N ms".
 */
export function runAt(deadline: number, res: ServerResponse, fn: () => void): void {
  const wait = deadline - performance.now();
  if (wait <= 0) {
    fn();
    return;
  }
  const cancel = () => clearTimeout(timer);
  const timer = setTimeout(() => {
    res.off("close", cancel);
    runAt(deadline, res, fn);
  }, Math.ceil(wait));
  res.once("close", cancel);
}
