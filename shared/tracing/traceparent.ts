import { isSpanContextValid, TraceFlags, type SpanContext } from "@opentelemetry/api";

/** Version 00 of W3C Trace Context: `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`, lower case. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** The one length a version-00 header has; anything longer is refused before the pattern runs. */
const TRACEPARENT_LENGTH = 55;

/**
 * The span context a W3C `traceparent` header names, or null when it is not one: only version 00,
 * exactly 55 characters, lower-case hex, neither id all zeros. A client's header, or a job's copy
 * of it, is untrusted: whatever fails these checks is ignored, never an error.
 */
export function parseTraceparent(header: unknown): SpanContext | null {
  if (typeof header !== "string" || header.length !== TRACEPARENT_LENGTH) return null;
  const match = TRACEPARENT.exec(header);
  if (!match) return null;
  const context: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    // Only the sampled bit is defined in version 00; the others are dropped.
    traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : null;
}

/** The `traceparent` header (version 00) of a span context. */
export function formatTraceparent(context: SpanContext): string {
  const flags = (context.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}
