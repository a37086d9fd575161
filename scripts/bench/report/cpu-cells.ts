import type { CpuUsage } from "../probes/cpu-usage";

/** `steal 2.3%` for a table cell ("n/a" without /proc/stat). */
export function stealCell(cpu: CpuUsage | null): string {
  return cpu ? `${cpu.stealPct.toFixed(1)}%` : "n/a";
}

/** `busy 81%` for a table cell ("n/a" without /proc/stat). */
export function busyCell(cpu: CpuUsage | null): string {
  return cpu ? `${cpu.busyPct.toFixed(0)}%` : "n/a";
}

/**
 * One header line about CPU over the measured windows: the overall figures and the worst window's
 * steal, with what the numbers mean, so a reader can judge the table below it.
 */
export function cpuHeaderLine(overall: CpuUsage | null, windows: (CpuUsage | null)[]): string {
  if (!overall) return "CPU steal: n/a (no /proc/stat on this machine)";
  const steals = windows.filter((w): w is CpuUsage => w !== null).map((w) => w.stealPct);
  const worst = steals.length > 1 ? `, worst window ${Math.max(...steals).toFixed(1)}%` : "";
  return (
    `CPU over the measured windows (all cores): steal ${overall.stealPct.toFixed(1)}%${worst}, busy ${overall.busyPct.toFixed(0)}% ` +
    // Steal is CPU time other tenants of the host took from us; above a few % latencies stretch.
    `(steal = time the hypervisor ran other guests on our vCPUs; above ~5% absolute latencies are inflated)`
  );
}
