import { loadavg } from "node:os";
import type { MachineInfo } from "../probes/machine-info";
import type { StackSetup } from "../stack/stack-setup";
import { checkoutInfo } from "./checkout-info";
import { writeJsonResult } from "./results-file";

/** The end of one scenario run: what it prints and what its raw JSON file holds besides the common fields. */
export interface ScenarioOutput {
  scenario: string;
  stamp: string;
  machine: MachineInfo;
  options: unknown;
  /** The tables (and notes) printed to stdout, in order. */
  lines: string[];
  /** Printed under "problems:", with where the child processes' logs are; none prints nothing. */
  problems: string[];
  /** The scenario's own results, stored after the common fields (they may override `loadAvg1mAfter`). */
  raw: Record<string, unknown>;
  failed: boolean;
}

/**
 * Prints a scenario's tables and problems to stdout and writes `.bench/<scenario>-<stamp>.json`
 * with what every scenario records (the commit, machine, load after, options, ports, setup steps, logs), its
 * own results and whether it failed. Returns the JSON file's path.
 */
export function finishScenario(setup: Pick<StackSetup, "ports" | "stepsMs" | "logs">, out: ScenarioOutput): string {
  const lines = [...out.lines];
  if (out.problems.length)
    lines.push(
      "",
      "problems:",
      ...out.problems.map((p) => `  ${p}`),
      `  child process logs: ${Object.values(setup.logs).join(", ")}`,
    );
  const checkout = checkoutInfo();
  const rawFile = writeJsonResult(`${out.scenario}-${out.stamp}.json`, {
    scenario: out.scenario,
    checkout,
    machine: out.machine,
    loadAvg1mAfter: loadavg()[0],
    options: out.options,
    ports: setup.ports,
    setupStepsMs: setup.stepsMs,
    logs: setup.logs,
    ...out.raw,
    failed: out.failed,
  });
  lines.push("");
  if (checkout) lines.push(`code: ${checkout.commit}${checkout.dirty ? " with uncommitted changes" : ""}`);
  lines.push(`raw results: ${rawFile}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return rawFile;
}
