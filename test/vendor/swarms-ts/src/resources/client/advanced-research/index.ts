// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export {
  AdvancedResearch,
  type AdvancedResearchCreateCompletionResponse,
  type AdvancedResearchCreateCompletionParams,
} from './advanced-research';
export { Batch, type BatchCreateCompletionResponse, type BatchCreateCompletionParams } from './batch';
