import { Gauge } from "prom-client";
import { PREFIX, workerRegistry } from "./registry";

const held = new Gauge({
  name: `${PREFIX}worker_held_for_memory`,
  help: "1 while this worker takes no new jobs because its resident memory is above WORKER_MAX_RSS_MB, else 0",
  registers: [workerRegistry],
});
held.set(0);

/** Reports whether the memory ceiling holds the worker back now. */
export function reportHeldForMemory(holding: boolean): void {
  held.set(holding ? 1 : 0);
}
