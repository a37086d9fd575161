import { expect } from "chai";
import type { Counter } from "prom-client";
import type { Run } from "../../shared/db/entities/run.entity";
import { workerRegistry } from "../../shared/metrics/registry";
import { countAbandonedRun } from "../../workers/abandoned-runs";

async function failedByService(kind: string): Promise<number> {
  const metric = workerRegistry.getSingleMetric("apiary_runs_total") as Counter | undefined;
  const values = (await metric?.get())?.values ?? [];
  const match = values.find(
    (v) => v.labels.kind === kind && v.labels.outcome === "failed" && v.labels.cause === "service",
  );
  return match?.value ?? 0;
}

describe("a run abandoned after its last attempt", () => {
  it("is counted as a failed run of the service's (crash loops and lost databases must reach the alerts)", async () => {
    const before = await failedByService("agent");
    countAbandonedRun({ kind: "agent", request: {}, execution_time: null } as unknown as Run);
    expect(await failedByService("agent")).to.equal(before + 1);
  });
});
