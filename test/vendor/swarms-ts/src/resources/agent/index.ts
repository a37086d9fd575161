// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export {
  Agent,
  type AgentCompletion,
  type AgentSpec,
  type McpConnection,
  type AgentListResponse,
  type AgentRunResponse,
  type AgentRunParams,
} from './agent';
export { Batch, type BatchRunResponse, type BatchRunParams } from './batch';
