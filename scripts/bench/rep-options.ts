import { positive } from "./bench-options";
import { parseFlags, UsageError } from "./scenario";

/** Flags of the scenarios that repeat a few long requests (batch, swarms). */
export interface RepOptions {
  /** Measured repetitions of each request; the tables show median and max. */
  reps: number;
  /** `--only A,B`: restrict to these names (swarm types); null = all. */
  only: string[] | null;
  quick: boolean;
}

/**
 * Parses `[--reps N] [--only A,B] [--quick]`. `--quick` is a smoke test of the harness (one
 * repetition), not a result; an explicit `--reps` wins over it. `--only` is refused unless the
 * scenario has names to pick from.
 */
export function parseRepOptions(argv: string[], defaults: { reps: number; allowOnly: boolean }): RepOptions {
  const values = parseFlags(argv, {
    reps: { type: "string" },
    only: { type: "string" },
    quick: { type: "boolean", default: false },
  });
  if (values.only !== undefined && !defaults.allowOnly)
    throw new UsageError("--only is not an option of this scenario");
  const only =
    values.only
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean) ?? null;
  return {
    reps: positive("reps", values.reps, true) ?? (values.quick ? 1 : defaults.reps),
    only: only?.length ? only : null,
    quick: values.quick === true,
  };
}
