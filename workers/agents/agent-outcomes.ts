import type { AgentOutcome } from "../../shared/contracts/agent-outcome";

/** Where one agent stands: how many of its turns started, how its last one ended, its last answer. */
interface Standing {
  started: number;
  lastEnded: "finished" | "failed" | null;
  ended: number;
  output: unknown;
  error: string | null;
}

/**
 * Each agent's part in a run as it goes (a request agent or one of a swarm type's own), so a run
 * that fails, is cancelled or stops at its budget can say what finished: per agent, whether its
 * last turn `succeeded` (with its answer), `failed` (with why; a turn still going when the run
 * stopped counts as failed), or never started (`skipped`). A retried job replays its stored turns
 * through here as well, so the outcomes are the run's, not one attempt's.
 */
export class AgentOutcomes {
  private readonly standings = new Map<string, Standing>();
  private readonly expected: string[] = [];

  /** Agents the run is to run, in request order: listed as `skipped` until they start. */
  expect(names: readonly string[]): void {
    for (const name of names) if (!this.expected.includes(name)) this.expected.push(name);
  }

  /** A turn of the agent starts. */
  started(name: string): void {
    this.standingOf(name).started++;
  }

  /** The agent answered within a turn that goes on (a review loop follows): its answer so far. */
  answered(name: string, output: unknown): void {
    this.standingOf(name).output = output;
  }

  /** A turn of the agent ended with its answer. */
  finished(name: string, output: unknown): void {
    const standing = this.standingOf(name);
    Object.assign(standing, { lastEnded: "finished", ended: standing.ended + 1, output, error: null });
  }

  /** A turn of the agent failed (after its retries) or was stopped. */
  failed(name: string, error: string): void {
    const standing = this.standingOf(name);
    Object.assign(standing, { lastEnded: "failed", ended: standing.ended + 1, error });
  }

  /** The agent's last answer so far (null when none came). */
  lastAnswer(name: string): unknown {
    return this.standings.get(name)?.output ?? null;
  }

  /** Every agent's outcome: the expected ones in request order, then the others in the order they started. */
  list(stoppedBecause: string): AgentOutcome[] {
    const names = [...this.expected, ...[...this.standings.keys()].filter((n) => !this.expected.includes(n))];
    return names.map((agent) => {
      const standing = this.standings.get(agent);
      if (!standing || standing.started === 0) return { agent, status: "skipped", output: null };
      const output = standing.output ?? null;
      if (standing.ended < standing.started)
        return { agent, status: "failed", output, error: `Stopped before it finished: ${stoppedBecause}` };
      if (standing.lastEnded === "failed") return { agent, status: "failed", output, error: standing.error };
      return { agent, status: "succeeded", output };
    });
  }

  private standingOf(name: string): Standing {
    let standing = this.standings.get(name);
    if (!standing) {
      standing = { started: 0, lastEnded: null, ended: 0, output: null, error: null };
      this.standings.set(name, standing);
    }
    return standing;
  }
}
