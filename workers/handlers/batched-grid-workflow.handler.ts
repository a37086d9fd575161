import type { BatchedGridWorkflowRun } from "../../shared/db/entities/run.entity";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { swarmUsage } from "../swarms/swarm-usage";
import { runGrid } from "../swarms/types/batched-grid-workflow";
import { workflowSwarm } from "../swarms/workflow-swarm";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/**
 * `POST /v1/batched-grid-workflow/completions`: the BatchedGridWorkflow swarm type's grid on a
 * stored run, its answers stored per task and keyed by agent (the last round's answer of each cell).
 */
export const handleBatchedGridWorkflow: Handler<"batched-grid-workflow"> = ({ runId }, ctx) =>
  executeRun<BatchedGridWorkflowRun>(runId, ctx, {
    kind: "batched_grid_workflow",
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      const swarm = workflowSwarm(
        { ...request, type: "BatchedGridWorkflow" },
        { recorder, budget, usage, signal },
        events,
      );
      const turns = await runGrid(swarm, request.imgs ?? []);
      // Maps, not objects: agent names are the client's, and `__proto__` must stay a key like any other.
      const cells = request.tasks.map(() => new Map<string, unknown>());
      // Turns come in (round, task, agent) order: the last round's answer of a cell is written last.
      for (const turn of turns) cells[turn.task_index as number].set(turn.role, turn.content);
      const outputs = cells.map((cell) => Object.fromEntries(cell));
      return {
        output: { outputs, number_of_agents: usage.agentCount },
        usage: swarmUsage(usage, run.service_tier, new Date()),
        log: { type: "BatchedGridWorkflow", agents: usage.agentCount },
      };
    },
    usageSoFar: ({ run, usage }) => swarmUsage(usage, run.service_tier, new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
  });
