import type { JobName } from "../../shared/queues/registry";
import { handleAdvancedResearch, handleAdvancedResearchBatch } from "./advanced-research.handler";
import { handleAgentBatch } from "./agent-batch.handler";
import { handleAgentRun } from "./agent-run.handler";
import { handleSwarmBatch } from "./swarm-batch.handler";
import { handleSwarmRun } from "./swarm-run.handler";
import { handleTokenLaunch } from "./token-launch.handler";
import type { Handler } from "./handler";

/** Job name → handler, spelled out so nothing depends on scanning folders. */
export const handlers: { [N in JobName]: Handler<N> } = {
  "agent-run": handleAgentRun,
  "agent-batch": handleAgentBatch,
  "swarm-run": handleSwarmRun,
  "swarm-batch": handleSwarmBatch,
  "token-launch": handleTokenLaunch,
  "advanced-research": handleAdvancedResearch,
  "advanced-research-batch": handleAdvancedResearchBatch,
};
