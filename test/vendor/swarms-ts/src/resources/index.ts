// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export {
  Agent,
  type AgentCompletion,
  type AgentSpec,
  type McpConnection,
  type AgentListResponse,
  type AgentRunResponse,
  type AgentRunParams,
} from './agent/agent';
export { Client } from './client/client';
export { Health, type HealthCheckResponse } from './health';
export { Models, type ModelListAvailableResponse } from './models';
export {
  ReasoningAgents,
  type ReasoningAgentCreateCompletionResponse,
  type ReasoningAgentListTypesResponse,
  type ReasoningAgentCreateCompletionParams,
} from './reasoning-agents';
export {
  Swarms,
  type SwarmSpec,
  type SwarmCheckAvailableResponse,
  type SwarmGetLogsResponse,
  type SwarmRunResponse,
  type SwarmRunParams,
} from './swarms/swarms';
export { type GetRootResponse } from './top-level';
