import { freePorts } from "./free-port";
import { nodeTsx, startProcess, type ManagedProcess } from "./managed-process";
import type { TeardownStep } from "./teardown";

/** What the simulator prints once it listens. */
const SIMULATOR_READY = /LLM simulator listening on /;
const START_TIMEOUT_MS = 60_000;

/** The command that runs the LLM simulator on `port`. */
export function simulatorCommand(port: number): string[] {
  return nodeTsx("scripts/llm-simulator/main.ts", "--port", String(port));
}

/** Waits until a started simulator listens. */
export async function simulatorListening(simulator: ManagedProcess): Promise<void> {
  await simulator.waitForOutput(SIMULATOR_READY, START_TIMEOUT_MS);
}

/**
 * Starts an LLM simulator of its own on a free port (quiet: warnings only), its output in
 * `logFile`, stopped at teardown; resolves with its base URL once it listens.
 */
export async function startSimulatorProcess(
  logFile: string,
  onTeardown: (step: TeardownStep) => void,
): Promise<string> {
  const [port] = await freePorts(1);
  const sim = startProcess("llm-simulator", simulatorCommand(port), { ...process.env, LOG_LEVEL: "warn" }, logFile);
  onTeardown(() => sim.stop());
  await simulatorListening(sim);
  return `http://127.0.0.1:${port}`;
}
