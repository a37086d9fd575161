import { readdirSync, readFileSync } from "node:fs";
import {
  hostPid,
  parseIdentity,
  parseProc,
  parseStatTimes,
  processTree,
  type ProcIdentity,
  type ProcSnapshot,
  type StatTimes,
} from "./proc-accounting";

/** The text of a /proc file; null when the process has exited (or there is no /proc: not Linux). */
export function readProcText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Pid, parent and CPU ticks of `pid`; null when it has exited. */
export function readStatTimes(pid: number): StatTimes | null {
  return parseStatTimes(readProcText(`/proc/${pid}/stat`) ?? "");
}

/** `pid`'s memory and CPU time; null when it has exited or there is no /proc. */
export function readProc(pid: number): ProcSnapshot | null {
  const status = readProcText(`/proc/${pid}/status`);
  const stat = readProcText(`/proc/${pid}/stat`);
  return status && stat ? parseProc(status, stat) : null;
}

/** Direct children of `pid`, from every one of its threads (a child spawned off the main thread counts too). */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((t) =>
    (readProcText(`/proc/${pid}/task/${t}/children`) ?? "").split(/\s+/).filter(Boolean).map(Number),
  );
}

/**
 * `root` and every process below it, as they are now: a process started through a wrapper (a
 * shell, `npm`, a CLI that runs the server in a child) does its work in a child or grandchild, which
 * the wrapper's own pid does not show.
 */
export function treeOf(root: number, apart?: ReadonlySet<number>): number[] {
  return processTree(root, childrenOf, apart);
}

/** The parent pid of `pid` (e.g. the postmaster, from one of its backends). */
export function parentPid(pid: number): number {
  const times = readStatTimes(pid);
  if (!times) throw new Error(`cannot read /proc/${pid}/stat`);
  return times.ppid;
}

/**
 * The pid in this machine's /proc of the process a server reported as its own, named `name`
 * (`postgres`, `redis-server`): the same pid for a server on this machine, another one for a
 * server in a container, whose pids are its own namespace's. Throws when no single process fits.
 */
export function visiblePid(reported: number, name: string): number {
  const processes = new Map<number, ProcIdentity>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const identity = parseIdentity(readProcText(`/proc/${entry}/status`) ?? "");
    if (identity) processes.set(Number(entry), identity);
  }
  const pid = hostPid(reported, name, processes);
  if (pid === null)
    throw new Error(
      `no single process named ${name} with pid ${reported} here or in a container; its CPU cannot be counted`,
    );
  return pid;
}
