/**
 * The most problems one decision's repair message names. The decision is a model's output, as long
 * as its output limit allows: a problem per item of a list of thousands, each naming the swarm's
 * agents, made a 400 KB answer a 324 MB message (and a RangeError past V8's longest string).
 */
const MAX_NAMED_PROBLEMS = 20;

/** The most characters of a problem text sent back to the model or kept in a run's error. */
export const MAX_PROBLEM_CHARS = 4_000;

/** What is wrong with a decision, collected item by item: the first few named, the rest counted. */
export class ProblemList {
  private readonly named: string[] = [];
  private unnamed = 0;

  /** Adds a problem; one given as a function is only written out when it will be named. */
  add(problem: string | (() => string)): void {
    if (this.named.length < MAX_NAMED_PROBLEMS) this.named.push(typeof problem === "string" ? problem : problem());
    else this.unnamed++;
  }

  get size(): number {
    return this.named.length + this.unnamed;
  }

  /** The problems as one sentence (`a; b; and 3 more`), or null when there are none. */
  text(): string | null {
    if (this.size === 0) return null;
    return this.unnamed ? `${this.named.join("; ")}; and ${this.unnamed} more` : this.named.join("; ");
  }
}

/** A validator's problem text cut to `MAX_PROBLEM_CHARS` (at a code point), for any validator. */
export function boundedProblem(problem: string): string {
  if (problem.length <= MAX_PROBLEM_CHARS) return problem;
  const cut = Array.from(problem.slice(0, MAX_PROBLEM_CHARS - 1)).join("");
  return `${cut.isWellFormed() ? cut : cut.slice(0, -1)}…`;
}
