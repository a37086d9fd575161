import type Router from "@koa/router";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Middleware } from "koa";
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from "../../shared/tracing/attributes";
import { withRequestTrace } from "../../shared/tracing/request-trace";
import { formatTraceparent, parseTraceparent } from "../../shared/tracing/traceparent";
import { activeTracer } from "../../shared/tracing/tracer";
import { routeOf } from "./metrics";

/**
 * One server span per request of the execution API, while tracing is on (else it only calls
 * `next`). A valid W3C `traceparent` header continues the client's trace; a malformed one is
 * ignored and the request starts a trace of its own. The runs the request queues carry the span's
 * context to their workers (`traceparentField`). The span holds the method, the route template
 * and the status: never the path's ids, the query or a header.
 */
export function requestSpan(routers: Router[]): Middleware {
  return async (ctx, next) => {
    const tracer = activeTracer();
    if (!tracer) return next();
    const client = parseTraceparent(ctx.get("traceparent"));
    const parent = client ? trace.setSpanContext(ROOT_CONTEXT, client) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: ctx.method } },
      parent,
    );
    try {
      await withRequestTrace(formatTraceparent(span.spanContext()), next);
    } finally {
      const route = routeOf(ctx, routers);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
