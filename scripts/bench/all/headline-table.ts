import type { MachineInfo } from "../probes/machine-info";
import { textTable } from "../report/text-table";
import type { HeadlineRow } from "../scenario";

/** One scenario's part of the combined run. */
export interface ScenarioPart {
  name: string;
  code: number;
  /** Wall time of the whole scenario (set-up included), s. */
  seconds: number;
  headline: HeadlineRow[];
  /** Raw JSON file, or the error that stopped the scenario. */
  rawFile: string | null;
  error: string | null;
}

/**
 * The one table `npm run bench` ends with: every scenario's key figures against the baseline
 * measured in the same run, with the CPU steal of each figure's window.
 */
export function renderHeadlineTable(parts: ScenarioPart[], machine: MachineInfo, quick: boolean): string {
  const title = `Apiary benchmark summary — ${machine.date}, ${machine.cpuModel} x${machine.cores}, ${machine.totalMemGiB} GiB, node ${machine.node}`;
  const how =
    `load average (1 min) before: ${machine.loadAvg1m.toFixed(2)} on ${machine.cores} cores${quick ? "; --quick: smoke test, not a result" : ""}; ` +
    "baselines are measured in the same run (direct simulator calls, 1 worker, the ideal time, depth x latency); steal = CPU the hypervisor gave other guests during that figure's window";
  const rows = [["area", "figure", "baseline", "measured", "vs baseline", "steal"]];
  for (const part of parts) {
    if (part.error) rows.push([part.name, "scenario failed", "", part.error.split("\n")[0].slice(0, 120), "", ""]);
    for (const r of part.headline) rows.push([r.area, r.figure, r.baseline, r.measured, r.versus, r.steal]);
  }
  const files = parts.map(
    (p) =>
      `  ${p.name.padEnd(12)} ${p.code === 0 ? "ok    " : "FAILED"} ${p.seconds.toFixed(0).padStart(4)} s  ${p.rawFile ?? p.error?.split("\n")[0] ?? ""}`,
  );
  return [title, how, "", textTable(rows, 2), "", "scenarios (exit status, time, raw results):", ...files].join("\n");
}
