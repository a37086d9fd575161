// Process accounting from /proc text, kept free of I/O so it can be tested on fixed strings;
// proc-reader.ts reads the files.

/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on every Linux build Node supports. */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat the benchmark reads. */
export interface StatTimes {
  pid: number;
  ppid: number;
  /** utime + stime of the process (all its threads), in ticks. */
  cpuTicks: number;
}

/** Parses /proc/<pid>/stat; null when it is not as expected. */
export function parseStatTimes(stat: string): StatTimes | null {
  // The command name (field 2) is in parentheses and may contain spaces and ')': count from after the last ')'.
  const close = stat.lastIndexOf(")");
  if (close < 0) return null;
  const pid = Number(stat.slice(0, stat.indexOf(" ")));
  // After the name: state (field 3), ppid (4), … utime (14), stime (15).
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(" ");
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![pid, ppid, utime, stime].every(Number.isFinite)) return null;
  return { pid, ppid, cpuTicks: utime + stime };
}

/** One process's memory and CPU time, read from /proc. */
export interface ProcSnapshot {
  /** Resident set size now, bytes. */
  rssBytes: number;
  /** The kernel's high-water mark of the resident set since the process started, bytes. */
  peakRssBytes: number;
  /** User + system CPU time so far, in ticks (see `cpuSeconds`). */
  cpuTicks: number;
}

function kiB(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Parses the text of /proc/<pid>/status and /proc/<pid>/stat; null when either is not as expected. */
export function parseProc(status: string, stat: string): ProcSnapshot | null {
  const times = parseStatTimes(stat);
  const rssBytes = kiB(status, "VmRSS");
  if (!times || !Number.isFinite(rssBytes)) return null;
  return { rssBytes, peakRssBytes: kiB(status, "VmHWM"), cpuTicks: times.cpuTicks };
}

/** A process as /proc/<pid>/status names it, with its pid in each pid namespace, this /proc's first. */
export interface ProcIdentity {
  name: string;
  nsPids: number[];
}

/** Parses the `Name:` and `NSpid:` lines of /proc/<pid>/status; null when either is missing. */
export function parseIdentity(status: string): ProcIdentity | null {
  const name = /^Name:\t(.*)$/m.exec(status)?.[1];
  const nsPids = /^NSpid:\t(.*)$/m.exec(status)?.[1].split(/\s+/).filter(Boolean).map(Number);
  if (name === undefined || !nsPids?.length || !nsPids.every(Number.isInteger)) return null;
  return { name, nsPids };
}

/**
 * The pid in this /proc of the process a server reported as its own (`pg_backend_pid()`, Redis's
 * `process_id`) and that is named `name`. A server in a container reports its pid in the
 * container's namespace, which here is another process or none: its process here is the one whose
 * innermost namespace pid is `reported`. Null when no process or more than one fits.
 */
export function hostPid(reported: number, name: string, processes: Map<number, ProcIdentity>): number | null {
  const fits: number[] = [];
  for (const [pid, p] of processes)
    if (p.name === name && (p.nsPids.length === 1 ? pid === reported : p.nsPids.at(-1) === reported)) fits.push(pid);
  return fits.length === 1 ? fits[0] : null;
}

/**
 * `root` and all its descendants, breadth first, each once. Pure over `children`, so it can be
 * tested without processes; a pid seen twice (a cycle in bad input) is not followed again. A pid
 * in `apart` is left out with all below it: a process measured under its own name (the bench
 * client started the simulator, the web process and the workers, each measured apart).
 */
export function processTree(
  root: number,
  children: (pid: number) => number[],
  apart: ReadonlySet<number> = new Set(),
): number[] {
  const seen = new Set<number>([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const child of children(queue[i])) {
      if (seen.has(child) || apart.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return queue;
}

/** What a child of the postmaster does, from its process title. */
export type PostgresRole = "backend" | "server" | "other-database";

/**
 * Classifies a child of the postmaster by its `/proc/<pid>/cmdline` (the process title Postgres
 * sets, NUL-separated): a backend of `database` (`postgres: apiary apiary_bench_current 127.0.0.1(5123) idle`,
 * and an autovacuum worker on it), a server process every database shares (checkpointer, background
 * writer, walwriter, autovacuum launcher, …), or a backend of another database (the tests and
 * other developers on a shared machine), which the benchmark leaves out.
 */
export function classifyPostgresProcess(cmdline: string, database: string): PostgresRole {
  const title = cmdline.replace(/\0/g, " ").trim();
  const words = title.split(/\s+/);
  // Title of a client backend: "postgres: <user> <database> <host(port)> <state>"; of an
  // autovacuum worker: "postgres: [<cluster>: ]autovacuum worker <database>".
  if (/autovacuum worker/.test(title)) return words.at(-1) === database ? "backend" : "other-database";
  const isClient = words.some((w) => /^[\w.:[\]-]+\(\d+\)$/.test(w) || w === "[local]");
  if (!isClient) return "server";
  return words.includes(database) ? "backend" : "other-database";
}

/** CPU ticks of one process at the first and the last time it was seen in a window. */
export interface TickSpan {
  first: number;
  last: number;
}

/**
 * Records one reading of a process: the first reading of a pid opens its span, later ones move
 * its end. A process that appears in the middle of the window is counted from its first reading
 * (a new Postgres connection's start-up ticks before that are missed, a few ms at most).
 */
export function recordTicks(spans: Map<number, TickSpan>, pid: number, ticks: number): void {
  const span = spans.get(pid);
  if (span) span.last = ticks;
  else spans.set(pid, { first: ticks, last: ticks });
}

/** CPU seconds a set of processes used between their first and last readings. */
export function cpuSeconds(spans: Iterable<TickSpan>): number {
  let ticks = 0;
  for (const s of spans) ticks += Math.max(0, s.last - s.first);
  return ticks / TICKS_PER_SECOND;
}

/** CPU milliseconds per completed run; NaN when no run completed. */
export function cpuMsPerRun(cpuS: number, runs: number): number {
  return runs > 0 ? (1_000 * cpuS) / runs : NaN;
}
