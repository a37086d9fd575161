import { readFileSync } from "node:fs";

/** CPU time of the whole machine (all cores) in USER_HZ ticks, from the `cpu` line of /proc/stat. */
interface CpuTicks {
  /** user + nice + system + irq + softirq: time this VM's CPUs did work. */
  busy: number;
  /** idle + iowait. */
  idle: number;
  /** Time our vCPUs wanted to run but the hypervisor ran another guest. */
  steal: number;
}

/** How the machine's CPUs spent one measured window (percentages of all cores' time). */
export interface CpuUsage {
  windowS: number;
  /** Share of the window the hypervisor gave our vCPUs to other guests. */
  stealPct: number;
  /** Share of the window our vCPUs did work (every process on this VM, the benchmark included). */
  busyPct: number;
}

function readTicks(): CpuTicks | null {
  let line: string | undefined;
  try {
    line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0];
  } catch {
    return null; // not Linux: the tables say "n/a" rather than fail
  }
  const fields = line?.split(/\s+/);
  if (fields?.[0] !== "cpu" || fields.length < 9) return null;
  // user nice system idle iowait irq softirq steal [guest guest_nice]. guest time is already
  // counted inside user/nice, so adding it again would double-count.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1, 9).map(Number);
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
}

/**
 * Starts a measured window and returns the function that ends it. Steal is what makes absolute
 * latencies on shared VMs swing by 2x: a table without it cannot be judged. Returns null on
 * machines without /proc/stat. Resolution is one tick (10 ms) per core, so windows under a second
 * give coarse percentages.
 */
export function startCpuWindow(): () => CpuUsage | null {
  const before = readTicks();
  const started = performance.now();
  return () => {
    const after = readTicks();
    if (!before || !after) return null;
    const busy = after.busy - before.busy;
    const steal = after.steal - before.steal;
    const total = busy + steal + (after.idle - before.idle);
    const pct = (ticks: number) => (total > 0 ? (100 * ticks) / total : 0);
    return { windowS: (performance.now() - started) / 1_000, stealPct: pct(steal), busyPct: pct(busy) };
  };
}

/** Runs `fn` as one measured window and returns its result with the window's CPU usage. */
export async function withCpuWindow<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: CpuUsage | null }> {
  const end = startCpuWindow();
  const value = await fn();
  return { value, cpu: end() };
}

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
