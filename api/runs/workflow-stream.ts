import type { StreamFormat } from "./run-stream";

/**
 * The workflow endpoints have no streaming form (the hosted API's have none): their stored
 * requests never ask for it, so `completeRun` never calls this.
 */
export function neverStreams(): StreamFormat {
  throw new Error("Workflow runs do not stream");
}
