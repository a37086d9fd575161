import { expect } from "chai";
import type { Run } from "../../shared/db/entities/run.entity";
import { workerRegistry } from "../../shared/metrics/registry";
import { countAbandonedRun } from "../../workers/abandoned-runs";
import { counted } from "../helpers/metric-values";

const failedByService = { kind: "agent", outcome: "failed", cause: "service" };

describe("a run abandoned after its last attempt", () => {
  it("is counted as a failed run of the service's (crash loops and lost databases must reach the alerts)", async () => {
    const before = await counted(workerRegistry, "apiary_runs_total", failedByService);
    countAbandonedRun({ kind: "agent", request: {}, execution_time: null } as unknown as Run);
    expect(await counted(workerRegistry, "apiary_runs_total", failedByService)).to.equal(before + 1);
  });
});
