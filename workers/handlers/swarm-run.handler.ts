import { config } from "../../shared/config";
import type { SwarmRunOutput } from "../../shared/contracts/swarm-request";
import type { SwarmRun as SwarmRunRecord } from "../../shared/db/entities/run.entity";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { openingText } from "../../shared/swarms/opening";
import { runsOncePerTask, type SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import { assertSwarmRules } from "../../shared/swarms/swarm-rules";
import { swarmRunners } from "../swarms/registry";
import { SwarmRun } from "../swarms/swarm-run";
import { swarmUsage } from "../swarms/swarm-usage";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** A swarm completion (and each swarm batch item): runs a swarm for a stored run and writes its output and usage to the row. */
export const handleSwarmRun: Handler<"swarm-run"> = ({ runId }, ctx) =>
  executeRun<SwarmRunRecord>(runId, ctx, {
    kind: "swarm",
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      // The API refused every request these rules refuse; one that bypassed it fails the run here.
      assertSwarmRules(request);
      const type = swarmRunners[request.swarm_type as SwarmTypeName];
      const swarm = new SwarmRun(
        request,
        request.agents ?? [],
        openingText(request),
        type.name,
        { recorder, budget, usage, signal },
        events,
        config.swarmMaxParallel,
      );
      let output: unknown;
      let ranType: string;
      if (runsOncePerTask(request)) {
        const results = await swarm.parallel(request.tasks!, async (task, i) => {
          const fork = swarm.fork(openingText(request, task), `t${i}`);
          return { task, output: await type.run(fork), ran: fork.ranType ?? type.name };
        });
        // `auto` chooses per task: one chosen type is the response's; different ones are named per task.
        const ran = [...new Set(results.map((r) => r.ran))];
        ranType = ran.length === 1 ? ran[0] : type.name;
        output = results.map(({ task, output, ran: taskType }) =>
          ran.length === 1 ? { task, output } : { task, swarm_type: taskType, output },
        );
      } else {
        output = await type.run(swarm);
        ranType = swarm.ranType ?? type.name;
      }
      const stored: SwarmRunOutput = { swarm_type: ranType, output, number_of_agents: usage.agentCount };
      return {
        output: stored,
        usage: swarmUsage(usage, request.service_tier, new Date()),
        log: { type: type.name, agents: usage.agentCount },
      };
    },
    usageSoFar: ({ run, usage }) => swarmUsage(usage, run.request.service_tier, new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
    windDown({ run, recorder, usage }) {
      // What finished, agent by agent: the last answer of each that gave one.
      const answers = recorder.outcomes
        .list("the run's budget was reached")
        .filter((a) => a.output !== null)
        .map((a) => ({ role: a.agent, content: a.output }));
      return {
        swarm_type: run.request.swarm_type ?? "SequentialWorkflow",
        output: answers,
        number_of_agents: usage.agentCount,
      };
    },
  });
