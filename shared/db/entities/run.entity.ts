import { EntitySchema } from "typeorm";
import type { StoredSecret } from "../../secrets/run-secrets";

export const RUN_KINDS = ["swarm", "agent", "swarm_batch", "agent_batch", "token_launch", "prompt_tokenize"] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One unit of work a client asked for; the source of truth for its state and result. */
export interface Run {
  id: string;
  job_id: string;
  kind: RunKind;
  parent_id: string | null;
  api_key_id: string | null;
  user_id: string | null;
  status: RunStatus;
  request: any;
  /** Secrets withheld from `request`, sealed to this run (see `shared/secrets/run-secrets.ts`); never shown. */
  sealed_secrets: StoredSecret[] | null;
  output: any;
  usage: any;
  error: any;
  service_tier: string;
  attempts: number;
  /** The execution holding the run (see `claimRunLease`), and until when. */
  lease_owner: string | null;
  lease_until: Date | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  execution_time: number | null;
}

export const RunEntity = new EntitySchema<Run>({
  name: "Run",
  tableName: "runs",
  columns: {
    id: { type: "uuid", primary: true },
    job_id: { type: "text", unique: true },
    kind: { type: "text" },
    parent_id: { type: "uuid", nullable: true },
    api_key_id: { type: "uuid", nullable: true },
    user_id: { type: "uuid", nullable: true },
    status: { type: "text" },
    request: { type: "jsonb" },
    sealed_secrets: { type: "jsonb", nullable: true },
    output: { type: "jsonb", nullable: true },
    usage: { type: "jsonb", nullable: true },
    error: { type: "jsonb", nullable: true },
    service_tier: { type: "text", default: "standard" },
    attempts: { type: "int", default: 0 },
    lease_owner: { type: "uuid", nullable: true },
    lease_until: { type: "timestamptz", nullable: true },
    queued_at: { type: "timestamptz" },
    started_at: { type: "timestamptz", nullable: true },
    finished_at: { type: "timestamptz", nullable: true },
    execution_time: { type: "double precision", nullable: true },
  },
});
