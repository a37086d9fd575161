import { readProc, type ProcSnapshot } from "./proc-stats";

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
 * Samples the RSS of each process every `intervalMs` from /proc while a run goes, and its CPU time
 * at the start and the end. Sampling (not the kernel's VmHWM) gives the peak of this window alone:
 * the high-water mark would also count start-up and earlier scenarios. Reading two small /proc
 * files per process costs microseconds, so it does not disturb what is measured.
 */
export function watchProcesses(processes: { name: string; pid: number | undefined }[], intervalMs = 100): ProcessWatch {
  const started = performance.now();
  const watched = processes
    .filter((p): p is { name: string; pid: number } => p.pid !== undefined)
    .map((p) => ({ ...p, first: readProc(p.pid), last: null as ProcSnapshot | null, peak: 0, samples: 0 }));
  const sample = () => {
    for (const w of watched) {
      const snap = readProc(w.pid);
      if (!snap) continue;
      w.last = snap;
      w.peak = Math.max(w.peak, snap.rssBytes);
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
        .filter((w) => w.first && w.last)
        .map((w) => {
          const cpuS = w.last!.cpuS - w.first!.cpuS;
          return {
            name: w.name,
            peakRssMiB: w.peak / MiB,
            endRssMiB: w.last!.rssBytes / MiB,
            cpuS,
            cpuPctOfCore: windowS > 0 ? (100 * cpuS) / windowS : 0,
            samples: w.samples,
          };
        });
    },
  };
}
