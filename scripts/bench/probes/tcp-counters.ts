import { readFileSync } from "node:fs";

/** Machine-wide TCP counters that explain slow or failed connections under a burst. */
export interface TcpCounters {
  /** Connections dropped because a listening socket's accept queue (its backlog) was full. */
  listenOverflows: number;
  /** SYNs dropped at a listening socket, overflows included. */
  listenDrops: number;
}

/** Parses /proc/net/netstat (a header line and a value line per section); null when not found. */
export function parseTcpCounters(netstat: string): TcpCounters | null {
  const lines = netstat.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].startsWith("TcpExt:") || !lines[i + 1].startsWith("TcpExt:")) continue;
    const names = lines[i].split(/\s+/);
    const values = lines[i + 1].split(/\s+/).map(Number);
    const get = (name: string) => values[names.indexOf(name)];
    const counters = { listenOverflows: get("ListenOverflows"), listenDrops: get("ListenDrops") };
    return Number.isFinite(counters.listenOverflows) && Number.isFinite(counters.listenDrops) ? counters : null;
  }
  return null;
}

/**
 * Starts counting and returns the function that gives the increase since. The counters are
 * machine-wide: on a shared machine another program's server can add to them.
 */
export function startTcpCounters(): () => TcpCounters | null {
  const read = () => {
    try {
      return parseTcpCounters(readFileSync("/proc/net/netstat", "utf8"));
    } catch {
      return null; // not Linux
    }
  };
  const before = read();
  return () => {
    const after = read();
    if (!before || !after) return null;
    return {
      listenOverflows: after.listenOverflows - before.listenOverflows,
      listenDrops: after.listenDrops - before.listenDrops,
    };
  };
}
