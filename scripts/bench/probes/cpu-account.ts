import { classifyPostgresProcess, cpuSeconds, recordTicks, type TickSpan } from "./proc-accounting";
import { childrenOf, readProcText, readStatTimes, treeOf } from "./proc-reader";

/** The OS processes one stack's runs spend CPU in (pids as this machine's /proc shows them). */
export interface StackPids {
  /** Procfile process name → pid (web, worker-swarm, worker-agent, worker-chain). */
  node: Record<string, number>;
  /** The Postgres server's main process (its children are found at every reading). */
  postmaster: number;
  /** The stack's database: backends of other databases are not counted. */
  database: string;
  redis: number;
}

/** CPU seconds per counted role over one window. */
export type CpuByRole = Record<string, number>;

/** Role names of the non-Node rows, in the order the tables show them. */
export const SERVICE_ROLES = ["postgres backends", "postgres server", "redis"] as const;

const SAMPLE_MS = 200;

/**
 * Starts counting the CPU time (utime + stime from /proc/<pid>/stat) of the processes `readings`
 * lists by role, asked again at every reading so a process that appears during the window is
 * counted from when it is first seen. The returned function ends the window.
 */
function startTickAccount(readings: () => Iterable<[role: string, pid: number]>): () => CpuByRole {
  const spans = new Map<string, Map<number, TickSpan>>();
  const sample = () => {
    for (const [role, pid] of readings()) {
      const times = readStatTimes(pid);
      if (!times) continue;
      let bucket = spans.get(role);
      if (!bucket) spans.set(role, (bucket = new Map()));
      recordTicks(bucket, pid, times.cpuTicks);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    sample();
    const out: CpuByRole = {};
    for (const [role, bucket] of spans) out[role] = cpuSeconds(bucket.values());
    return out;
  };
}

/** Every process of each root's tree, under the root's name; a tree stops at the other roots. */
function* treeReadings(roots: Record<string, number>): Iterable<[string, number]> {
  const apart = new Set(Object.values(roots));
  for (const [name, root] of Object.entries(roots)) for (const pid of treeOf(root, apart)) yield [name, pid];
}

/**
 * Starts counting the CPU seconds of each named process together with every process below it
 * (e.g. a peer's CLI that runs the server in a child), the trees listed again at every reading.
 */
export function startTreeCpuAccount(roots: Record<string, number>): () => CpuByRole {
  return startTickAccount(() => treeReadings(roots));
}

/**
 * Starts counting the CPU time of every process a stack's runs use: its Node processes and all
 * they started, the Postgres backends connected to its database, the Postgres server's own
 * processes (postmaster, checkpointer, walwriter, background writer, autovacuum launcher…) and
 * redis-server with any child it forks (a background save). Postgres children are listed again at
 * every reading, so a connection opened during the window is counted from when it is first seen.
 *
 * The Postgres server processes and Redis are shared with the other stack (and anything else on
 * the machine); the scenario measures one stack at a time, so their CPU in a window is the
 * measured stack's (plus the background of the machine, which both stacks' windows see alike).
 */
export function startCpuAccount(pids: StackPids): () => CpuByRole {
  return startTickAccount(function* () {
    yield* treeReadings(pids.node);
    yield ["postgres server", pids.postmaster];
    for (const child of childrenOf(pids.postmaster)) {
      const role = classifyPostgresProcess(readProcText(`/proc/${child}/cmdline`) ?? "", pids.database);
      if (role === "other-database") continue;
      const name = role === "backend" ? "postgres backends" : "postgres server";
      for (const pid of treeOf(child)) yield [name, pid];
    }
    yield* treeReadings({ redis: pids.redis });
  });
}
