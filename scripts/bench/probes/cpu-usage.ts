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
