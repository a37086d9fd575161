import { deleteQueuedRun, insertRun, type NewRun } from "../../shared/db/runs/run-rows";
import type { ApiDeps } from "../deps";

/**
 * Inserts the run while the rate-limit verdict arrives (so an admitted request does not pay for
 * the two one after the other); a refused request leaves no row behind.
 */
export async function insertAdmitted(
  deps: ApiDeps,
  row: NewRun,
  options: { relaxed: boolean },
  admission: Promise<void> = Promise.resolve(),
): Promise<void> {
  const [inserted, admitted] = await Promise.allSettled([insertRun(deps.ds, row, options), admission]);
  if (admitted.status === "rejected") {
    if (inserted.status === "fulfilled") await deleteQueuedRun(deps.ds, row.id).catch(() => undefined);
    throw admitted.reason;
  }
  if (inserted.status === "rejected") throw inserted.reason;
}
