// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export {
  AdvancedResearch,
  type AdvancedResearchCreateCompletionResponse,
  type AdvancedResearchCreateCompletionParams,
} from './advanced-research/index';
export {
  AutoSwarmBuilder,
  type AutoSwarmBuilderCreateCompletionResponse,
  type AutoSwarmBuilderListExecutionTypesResponse,
  type AutoSwarmBuilderCreateCompletionParams,
} from './auto-swarm-builder';
export {
  BatchedGridWorkflow,
  type BatchedGridWorkflowCompleteWorkflowResponse,
  type BatchedGridWorkflowCompleteWorkflowParams,
} from './batched-grid-workflow';
export { Client } from './client';
export {
  GraphWorkflow,
  type GraphWorkflowExecuteWorkflowResponse,
  type GraphWorkflowExecuteWorkflowParams,
} from './graph-workflow';
export {
  Marketplace,
  type MarketplaceCreateAgentResponse,
  type MarketplaceCreateAgentParams,
} from './marketplace';
export { Rate, type RateLimitWindow, type RateGetLimitsResponse } from './rate';
export { Tools, type ToolListAvailableResponse } from './tools';
