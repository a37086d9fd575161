import type { Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { config } from "../config";
import { logger } from "../logger";
import { PROCESS_ROLE } from "./attributes";

/**
 * How spans leave the process: batched in the background, never on a run's path. At most
 * `MAX_QUEUED_SPANS` wait; spans ended while the queue is full are dropped (a collector that is down
 * or slow loses spans, never delays or fails a run). Each export gives up after `EXPORT_TIMEOUT_MS`.
 */
const EXPORT_LIMITS = {
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
  scheduledDelayMillis: 1_000,
  exportTimeoutMillis: 5_000,
};
/** Longest a shutdown waits for the last spans to be sent. */
const FLUSH_ON_SHUTDOWN_MS = 3_000;

let provider: BasicTracerProvider | null = null;
let tracer: Tracer | null = null;

function samplerOf(settings: typeof config.tracing): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  const root = { always_on: new AlwaysOnSampler(), always_off: new AlwaysOffSampler(), traceidratio: ratio };
  switch (settings.sampler) {
    case "always_on":
    case "always_off":
    case "traceidratio":
      return root[settings.sampler];
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: root.always_on });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: root.always_off });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
  }
}

/**
 * Starts exporting this process's spans when an endpoint is configured (else does nothing, and
 * `activeTracer()` stays null). `role` names the process: `web`, or `worker-<queues>`.
 */
export function startTracing(role: string, settings = config.tracing): void {
  if (!settings.url || provider) return;
  const exporter = new OTLPTraceExporter({
    url: settings.url,
    headers: { ...settings.headers },
    timeoutMillis: EXPORT_LIMITS.exportTimeoutMillis,
    concurrencyLimit: 2,
  });
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName ?? `apiary-${role}`,
      [PROCESS_ROLE]: role,
    }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor(exporter, EXPORT_LIMITS)],
  });
  tracer = provider.getTracer("apiary");
  // The collector's address may carry credentials in its query: only its origin is logged.
  logger.info({ collector: new URL(settings.url).origin, role }, "tracing on");
}

/** The tracer spans are made with, or null while tracing is off (then no span is ever made). */
export function activeTracer(): Tracer | null {
  return tracer;
}

/** Sends the spans still queued (for at most a few seconds) and stops exporting; for a process's shutdown. */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  if (!stopping) return;
  provider = null;
  tracer = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FLUSH_ON_SHUTDOWN_MS);
    timer.unref();
  });
  await Promise.race([stopping.shutdown().catch(() => undefined), deadline]);
  clearTimeout(timer);
}
