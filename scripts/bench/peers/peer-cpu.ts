import { readdirSync, readFileSync } from "node:fs";
import { cpuSeconds, parseStatTimes, recordTicks, type TickSpan } from "../deployed/proc-accounting";

const SAMPLE_MS = 200;

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null; // the process has exited
  }
}

/** Direct children of `pid`, from every one of its threads (a child spawned off the main thread counts too). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((t) => (read(`/proc/${pid}/task/${t}/children`) ?? "").split(/\s+/).filter(Boolean).map(Number));
}

/**
 * `root` and all its descendants, breadth first, each once. Pure over `children`, so it can be
 * tested without processes; a pid seen twice (a cycle in bad input) is not followed again.
 */
export function processTree(root: number, children: (pid: number) => number[]): number[] {
  const seen = new Set<number>([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const child of children(queue[i])) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return queue;
}

/**
 * Starts counting the CPU time (utime + stime) of a peer's server process and every process it
 * started (e.g. a CLI that runs the server in a child), re-listing the tree at every reading.
 * The returned function ends the window and gives CPU seconds.
 */
export function startTreeCpuAccount(root: number): () => number {
  const spans = new Map<number, TickSpan>();
  const sample = () => {
    for (const pid of processTree(root, childrenOf)) {
      const times = parseStatTimes(read(`/proc/${pid}/stat`) ?? "");
      if (times) recordTicks(spans, pid, times.cpuTicks);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    sample();
    return cpuSeconds(spans.values());
  };
}
