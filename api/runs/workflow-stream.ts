import type { StreamFormat } from "../spine/run-stream";

/**
 * The workflow and advanced research endpoints have no streaming form (the hosted API's have
 * none): their stored requests never ask for it, so `completeRun` never calls this.
 */
export function neverStreams(): StreamFormat {
  throw new Error("These runs do not stream");
}
