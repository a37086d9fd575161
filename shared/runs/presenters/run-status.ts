import type { Run } from "../../db/entities/run.entity";

/** Public names of run states (the hosted API says `success`, not `succeeded`). */
export const PUBLIC_STATUS: Record<Run["status"], string> = {
  queued: "queued",
  running: "running",
  awaiting_approval: "awaiting_approval",
  succeeded: "success",
  failed: "failed",
  cancelled: "cancelled",
};
