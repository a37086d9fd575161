import { loadavg } from "node:os";
import { measureSequential, type SequentialResult } from "../client/closed-loop";
import { runLoad, type LoadResult } from "../client/load-run";
import type { LoadWindow } from "../deployed/deployed-measure";
import { startCpuAccount } from "../probes/cpu-account";
import { startCpuWindow } from "../probes/cpu-usage";
import { rotation } from "../peers/peers-measure";
import { directTarget, serviceTarget } from "../targets/agent-completion-targets";
import type { FloorOptions } from "./floor-options";
import type { FloorSubject } from "./floor-subject";

/** Clients of the throughput figure (the target's 50). */
export const FLOOR_CLIENTS = 50;
const DRAIN_TIMEOUT_MS = 120_000;

/** One subject's figures in one round. */
interface SubjectRound {
  sequential: SequentialResult;
  agent: LoadResult & { window: LoadWindow };
}

/** One round: the simulator alone at c=1, then every subject in this round's order. */
export interface FloorRound {
  round: number;
  order: string[];
  direct: SequentialResult;
  subjects: Record<string, SubjectRound>;
}

/** `clients` keep-alive clients for `durationS` as one CPU window: from the first request until the subject is idle. */
async function window(subject: FloorSubject, clients: number, durationS: number) {
  const target = serviceTarget(subject.apiUrl, subject.apiKey);
  const before = await subject.finishedRuns();
  const endCpu = startCpuWindow();
  const endAccount = startCpuAccount(subject.pids);
  const load = await runLoad({ ...target, name: subject.label }, clients, durationS);
  // Requests cut off at the deadline still run: their CPU and their runs both count.
  await subject.waitUntilIdle(DRAIN_TIMEOUT_MS);
  const cpuByRole = endAccount();
  const cpu = endCpu();
  const runs = (await subject.finishedRuns()) - before;
  subject.assertAlive();
  const w: LoadWindow = { cpuByRole, runs, cpu, loadAvg1m: loadavg()[0] };
  return { ...load, window: w };
}

/** Discarded load on each subject: JIT, pools and connections of every process get going. */
export async function warmUp(subjects: FloorSubject[], opts: FloorOptions, say: (line: string) => void) {
  for (const s of subjects) {
    say(`warming up ${s.label} (${opts.warmupS} s at c=${FLOOR_CLIENTS})`);
    await window(s, FLOOR_CLIENTS, opts.warmupS);
  }
}

/**
 * The rounds (subjects in `rotation`'s order, as the peers scenario does): the simulator alone at c=1 (the base of "added latency"), then each subject in turn:
 * single-agent runs at c=1 (hrtime loop) and at c=50 (autocannon, keep-alive; one CPU window).
 * Only one subject has load at any moment, so the shared Postgres server's CPU in a window is its.
 */
export async function measureFloorRounds(
  subjects: FloorSubject[],
  simulatorUrl: string,
  opts: FloorOptions,
  say: (line: string) => void,
): Promise<FloorRound[]> {
  const rounds: FloorRound[] = [];
  const d = opts.durationS;
  for (let i = 0; i < opts.rounds; i++) {
    const order = rotation(i, subjects);
    const label = `round ${i + 1}/${opts.rounds}`;
    say(`${label}: simulator alone at c=1, ${d} s`);
    const direct = await measureSequential(directTarget(simulatorUrl), d);
    const round: FloorRound = { round: i + 1, order: order.map((s) => s.label), direct, subjects: {} };
    for (const s of order) {
      say(`${label} ${s.label}: c=1, then c=${FLOOR_CLIENTS}, ${d} s each`);
      const target = { ...serviceTarget(s.apiUrl, s.apiKey), name: s.label };
      const sequential = await measureSequential(target, d);
      await s.waitUntilIdle(DRAIN_TIMEOUT_MS);
      round.subjects[s.label] = { sequential, agent: await window(s, FLOOR_CLIENTS, d) };
    }
    rounds.push(round);
  }
  return rounds;
}
