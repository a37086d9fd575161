import { cpuSeconds, recordTicks, type TickSpan } from "./proc-accounting";
import { readProc, treeOf } from "./proc-reader";

/** What one process used over a watched window. */
export interface ProcessUsage {
  name: string;
  /** Highest RSS among the samples, MiB. */
  peakRssMiB: number;
  /** RSS at the end of the window, MiB. */
  endRssMiB: number;
  /** CPU seconds (user + system) the process used in the window. */
  cpuS: number;
  /** Its CPU time as a share of one core over the window, %. */
  cpuPctOfCore: number;
  samples: number;
}

/** A running watch; `stop` ends it and returns one entry per process that could be read. */
export interface ProcessWatch {
  stop(): ProcessUsage[];
}

const MiB = 1024 * 1024;

/**
 * Samples the RSS of each process, together with every process below it (a wrapper's real worker
 * is its child) that is not watched under its own name, every `intervalMs` from /proc while a run goes, and counts their CPU time from
 * each one's first to its last reading. Sampling (not the kernel's VmHWM) gives the peak of this
 * window alone: the high-water mark would also count start-up and earlier scenarios. Reading two
 * small /proc files per process costs microseconds, so it does not disturb what is measured.
 */
export function watchProcesses(processes: { name: string; pid: number | undefined }[], intervalMs = 100): ProcessWatch {
  const started = performance.now();
  const watched = processes
    .filter((p): p is { name: string; pid: number } => p.pid !== undefined)
    .map((p) => ({ ...p, ticks: new Map<number, TickSpan>(), lastRss: 0, peak: 0, samples: 0 }));
  // Each tree stops at the others' roots, so a process started by another watched one counts once.
  const roots = new Set(watched.map((w) => w.pid));
  const sample = () => {
    for (const w of watched) {
      let rss = 0;
      let seen = false;
      for (const pid of treeOf(w.pid, roots)) {
        const snap = readProc(pid);
        if (!snap) continue;
        seen = true;
        rss += snap.rssBytes;
        recordTicks(w.ticks, pid, snap.cpuTicks);
      }
      if (!seen) continue;
      w.lastRss = rss;
      w.peak = Math.max(w.peak, rss);
      w.samples++;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const windowS = (performance.now() - started) / 1_000;
      return watched
        .filter((w) => w.samples > 0)
        .map((w) => {
          const cpuS = cpuSeconds(w.ticks.values());
          return {
            name: w.name,
            peakRssMiB: w.peak / MiB,
            endRssMiB: w.lastRss / MiB,
            cpuS,
            cpuPctOfCore: windowS > 0 ? (100 * cpuS) / windowS : 0,
            samples: w.samples,
          };
        });
    },
  };
}
