import type { GraphWorkflowRun } from "../../shared/db/entities/run.entity";
import { BadRequestError } from "../../shared/errors";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { graphProblems, planGraph } from "../../shared/swarms/graph-plan";
import { runGraph } from "../swarms/graph-workflow";
import { swarmUsage } from "../swarms/swarm-usage";
import { workflowSwarm } from "../swarms/workflow-swarm";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** `POST /v1/graph-workflow/completions`: runs the graph of a stored run and writes every node's output. */
export const handleGraphWorkflow: Handler<"graph-workflow"> = ({ runId }, ctx) =>
  executeRun<GraphWorkflowRun>(runId, ctx, {
    kind: "graph_workflow",
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      const graph = { ...request, names: request.agents.map((a) => a.agent_name ?? "") };
      // The API refused every graph these checks refuse; one that bypassed it fails the run here.
      const problems = graphProblems(graph);
      if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_WORKFLOW");
      const swarm = workflowSwarm({ ...request, type: "GraphWorkflow" }, { recorder, budget, usage, signal }, events);
      const outputs = await runGraph(swarm, planGraph(graph), request.task);
      return {
        output: { outputs, number_of_agents: usage.agentCount },
        usage: swarmUsage(usage, run.service_tier, new Date()),
        log: { type: "GraphWorkflow", agents: usage.agentCount },
      };
    },
    usageSoFar: ({ run, usage }) => swarmUsage(usage, run.service_tier, new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
  });
