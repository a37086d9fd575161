import { readFileSync } from "node:fs";

/** One process's memory and CPU time, read from /proc. */
export interface ProcSnapshot {
  /** Resident set size now, bytes. */
  rssBytes: number;
  /** The kernel's high-water mark of the resident set since the process started, bytes. */
  peakRssBytes: number;
  /** User + system CPU time so far, seconds. */
  cpuS: number;
}

// USER_HZ: the unit of /proc/<pid>/stat times; 100 on every Linux build Node supports.
const TICKS_PER_SECOND = 100;

function kiB(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Parses the text of /proc/<pid>/status and /proc/<pid>/stat; null when either is not as expected. */
export function parseProc(status: string, stat: string): ProcSnapshot | null {
  // The command name (field 2) is in parentheses and may contain spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssBytes = kiB(status, "VmRSS");
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || !Number.isFinite(rssBytes)) return null;
  return { rssBytes, peakRssBytes: kiB(status, "VmHWM"), cpuS: (utime + stime) / TICKS_PER_SECOND };
}

/** Reads `pid`'s snapshot; null when it has exited or there is no /proc (not Linux). */
export function readProc(pid: number): ProcSnapshot | null {
  try {
    return parseProc(readFileSync(`/proc/${pid}/status`, "utf8"), readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}
