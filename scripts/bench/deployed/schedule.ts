// The order the two stacks are measured in: machine noise (other tenants, autovacuum, a busy
// neighbour) drifts over minutes, so each stack goes first in every other round and the soak
// alternates short slices, and the noise lands on both alike.

/** The stacks in the order round `round` (0-based) measures them: the first one flips every round. */
export function roundOrder<T>(round: number, stacks: readonly T[]): T[] {
  return round % 2 === 0 ? [...stacks] : [...stacks].reverse();
}

/** One slice of the soak: which stack gets the load, and for how long. */
export interface SoakSlice<T> {
  stack: T;
  seconds: number;
}

/**
 * The soak's slices: `minutes` of load in total per stack, cut into slices of at most `sliceS`
 * seconds, the stacks taking turns (current, baseline, baseline, current, …) so neither always
 * runs right after the other's load.
 */
export function soakSlices<T>(minutes: number, sliceS: number, stacks: readonly T[]): SoakSlice<T>[] {
  const perStack = minutes * 60;
  const out: SoakSlice<T>[] = [];
  let done = 0;
  for (let pair = 0; done < perStack - 1e-9; pair++) {
    const seconds = Math.min(sliceS, perStack - done);
    for (const stack of roundOrder(pair, stacks)) out.push({ stack, seconds });
    done += seconds;
  }
  return out;
}
