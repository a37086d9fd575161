import { measureSequential } from "../client/closed-loop";
import { runLoad } from "../client/load-run";
import { directTarget } from "../targets/agent-completion-targets";
import type { PeerSubject } from "./peer-subjects";
import type { PeersOptions } from "./peers-options";
import type { PeersRound } from "./peers-report";

/**
 * The subjects in the order round `round` (0-based) measures them: rotated by one each round, so
 * machine noise that drifts over minutes (other tenants, autovacuum) does not always land on the
 * same peer, and none always runs right after the same neighbour's load.
 */
export function rotation<T>(round: number, items: readonly T[]): T[] {
  const k = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * The rounds: per round the simulator alone at one client (the base of "added latency"), then
 * each subject in this round's order at one client (hrtime loop) and at `opts.clients` (autocannon,
 * keep-alive, one CPU window). Only one subject has load at any moment.
 */
export async function measurePeerRounds(
  subjects: PeerSubject[],
  simulatorUrl: string,
  opts: PeersOptions,
  say: (line: string) => void,
): Promise<PeersRound[]> {
  const rounds: PeersRound[] = [];
  const d = opts.durationS;
  for (let i = 0; i < opts.rounds; i++) {
    const order = rotation(i, subjects);
    const label = `round ${i + 1}/${opts.rounds}`;
    say(`${label}: simulator alone at c=1, ${d} s`);
    const direct = await measureSequential(directTarget(simulatorUrl), d);
    const round: PeersRound = { round: i + 1, order: order.map((s) => s.name), direct, peers: {} };
    for (const s of order) {
      say(`${label} ${s.name}: c=1 then c=${opts.clients}, ${d} s each`);
      const sequential = await measureSequential(s.target, d);
      s.assertAlive();
      const window = await s.window(() => runLoad(s.target, opts.clients, d));
      round.peers[s.name] = { sequential, window };
    }
    rounds.push(round);
  }
  return rounds;
}
