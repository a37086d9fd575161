import type { JobName } from "../../shared/runs/run-kind-catalog";
import { handleAgentGenerate } from "./agent-generate.handler";
import { handleAutoSwarmBuilder } from "./auto-swarm-builder.handler";
import { handleAdvancedResearch, handleAdvancedResearchBatch } from "./advanced-research.handler";
import { handleAgentBatch } from "./agent-batch.handler";
import { handleAgentRun } from "./agent-run.handler";
import { handleChatCompletion, handleResponse } from "./chat-run.handler";
import { handleEmbedding } from "./embedding.handler";
import { handleBatchedGridWorkflow } from "./batched-grid-workflow.handler";
import { handleGraphWorkflow } from "./graph-workflow.handler";
import { handleReasoningAgentRun } from "./reasoning-agent-run.handler";
import { handleSwarmBatch } from "./swarm-batch.handler";
import { handleSwarmRun } from "./swarm-run.handler";
import { handleTokenLaunch } from "./token-launch.handler";
import type { Handler } from "./handler";

/** Job name → handler, spelled out so nothing depends on scanning folders. */
export const handlers: { [N in JobName]: Handler<N> } = {
  "agent-run": handleAgentRun,
  "agent-batch": handleAgentBatch,
  "chat-completion": handleChatCompletion,
  response: handleResponse,
  "swarm-run": handleSwarmRun,
  "swarm-batch": handleSwarmBatch,
  "token-launch": handleTokenLaunch,
  "auto-swarm-builder": handleAutoSwarmBuilder,
  "agent-generate": handleAgentGenerate,
  "graph-workflow": handleGraphWorkflow,
  "batched-grid-workflow": handleBatchedGridWorkflow,
  "reasoning-agent-run": handleReasoningAgentRun,
  "advanced-research": handleAdvancedResearch,
  "advanced-research-batch": handleAdvancedResearchBatch,
  embedding: handleEmbedding,
};
