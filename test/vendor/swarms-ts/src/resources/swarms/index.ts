// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export { Batch, type BatchRunResponse, type BatchRunParams } from './batch';
export {
  Swarms,
  type SwarmSpec,
  type SwarmCheckAvailableResponse,
  type SwarmGetLogsResponse,
  type SwarmRunResponse,
  type SwarmRunParams,
} from './swarms';
