// CPU accounting from /proc text, kept free of I/O so it can be tested on fixed strings.

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
