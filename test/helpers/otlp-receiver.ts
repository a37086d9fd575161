import { createServer, type Server } from "node:http";
import { eventually } from "./http";
import { closeNow, listenLocally } from "./local-server";

/** An OTLP attribute value as the JSON encoding writes it. */
interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type Attributes = Record<string, string | number | boolean>;

/** One exported span, flattened: ids in hex, its attributes and its process's resource attributes as plain maps. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  resource: Attributes;
  status: { code?: number; message?: string };
}

interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes?: { key: string; value: AnyValue }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

const valueOf = (value: AnyValue): string | number | boolean =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue!));
const attributesOf = (list: { key: string; value: AnyValue }[] = []): Attributes =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

function spansOf(body: OtlpRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((rs) => {
    const resource = attributesOf(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? "",
        name: s.name,
        kind: s.kind,
        startMs: Number(BigInt(s.startTimeUnixNano) / 1_000_000n),
        endMs: Number(BigInt(s.endTimeUnixNano) / 1_000_000n),
        attributes: attributesOf(s.attributes),
        resource,
        status: s.status ?? {},
      })),
    );
  });
}

/** A local OTLP/HTTP collector: what it received, byte for byte and as spans. */
export interface OtlpReceiver {
  /** Its base URL: what `OTEL_EXPORTER_OTLP_ENDPOINT` names. */
  url: string;
  /** Every export's body as sent, for scanning the bytes. */
  bodies: string[];
  /** Every export's headers (lower case). */
  headers: Record<string, string>[];
  spans: ReceivedSpan[];
  /** Waits, with a deadline, until `matches` holds of the spans received so far. */
  waitFor(matches: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver of `POST /v1/traces` in OTLP's JSON encoding. `hold`: never answer (a
 * collector that accepts connections and hangs), to show exports cannot slow runs.
 */
export async function startOtlpReceiver(options: { hold?: boolean } = {}): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const headers: Record<string, string>[] = [];
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (options.hold) return;
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      bodies.push(body);
      headers.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
      spans.push(...spansOf(JSON.parse(body) as OtlpRequest));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const url = await listenLocally(server);
  return {
    url,
    bodies,
    headers,
    spans,
    waitFor: (matches, timeoutMs = 20_000) => eventually(async () => (matches(spans) ? spans : undefined), timeoutMs),
    close: () => closeNow(server),
  };
}
