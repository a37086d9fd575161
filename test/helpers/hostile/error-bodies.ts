import { joiToJsonSchema, type JsonSchema } from "../../../api/openapi/joi-json-schema";
import { isOpenAiPath } from "../../../api/routes/v1/openai/openai-paths";
import {
  apiErrorBodySchema,
  platformErrorBodySchema,
  validationErrorBodySchema,
} from "../../../api/schemas/error-body.schema";
import { openAiErrorBodySchema } from "../../../api/schemas/openai-response.schema";
import type { DocumentedOperation } from "./operations";
import type { RawResponse } from "./send";

/**
 * The app's own error bodies for answers an operation does not describe (a 405, a 415): the
 * document's component when it has one, else the schema the document would publish.
 */
function fallbackErrorSchema(target: DocumentedOperation, status: number, openAi: boolean): JsonSchema {
  const [id, joi] =
    target.app === "platform"
      ? (["PlatformError", platformErrorBodySchema] as const)
      : openAi
        ? (["OpenAIError", openAiErrorBodySchema] as const)
        : status === 422
          ? (["ValidationErrorBody", validationErrorBodySchema] as const)
          : (["ApiError", apiErrorBodySchema] as const);
  if (target.doc.components?.schemas?.[id]) return { $ref: `#/components/schemas/${id}` };
  const own: Record<string, JsonSchema> = {};
  const converted = joiToJsonSchema(joi, own);
  return own[id] ?? converted;
}

/** OpenAI's error `type` for the statuses that have their own; other 4xx are `invalid_request_error`, 5xx `server_error`. */
const OPENAI_TYPES: Record<number, string> = {
  401: "authentication_error",
  403: "permission_error",
  429: "rate_limit_error",
};

/** Signs of internals in a body: stack frames, source paths, driver and engine errors. */
const LEAKS: [string, RegExp][] = [
  ["a stack frame", /\bat (?:async )?\S+ \(?[^\s()]+:\d+:\d+\)?/],
  ["a source path", new RegExp(`${process.cwd().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|node_modules|\\.ts:\\d+`)],
  [
    "a database error",
    /QueryFailedError|DatabaseError|SQLSTATE|duplicate key value|syntax error at or near|invalid input syntax|violates .* constraint/i,
  ],
  ["an engine error", /\b(?:RangeError|TypeError|ReferenceError|SyntaxError)\b|Maximum call stack/],
];

function headerText(res: RawResponse, name: string): string {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/**
 * What is wrong with an error answer (status ≥ 400) of an operation: a body not in the app's
 * documented shape (validated against the operation's own schema for that status where it has
 * one), a `status_code` other than the status, a 405 without `Allow`, or internals leaking out.
 * `outsideOperation`: the request left the operation's path (`../..`), so the app answers it.
 */
export function errorBodyProblems(
  target: DocumentedOperation,
  res: RawResponse,
  options: { outsideOperation?: boolean } = {},
): string[] {
  const problems: string[] = [];
  for (const [what, pattern] of LEAKS) if (pattern.test(res.text)) problems.push(`the body shows ${what}`);
  const mediaType = headerText(res, "content-type").split(";")[0].trim().toLowerCase();
  const documented = options.outsideOperation
    ? undefined
    : (target.op.responses?.[String(res.status)]?.content as Record<string, { schema?: JsonSchema }> | undefined);
  // A status the operation documents comes in its documented media type. Any other (no route, a
  // wrong method) is the app's JSON error body, or, from a page route, an HTML page.
  const html = documented
    ? "text/html" in documented && !("application/json" in documented)
    : target.answersHtml && !options.outsideOperation && mediaType === "text/html";
  if (res.status === 405 && !headerText(res, "allow")) problems.push("a 405 without an Allow header");
  if (html) {
    if (mediaType !== "text/html")
      problems.push(`an HTML error page was expected, got ${mediaType || "no content type"}`);
    else if (!/<html[\s>]/i.test(res.text) || !/<\/html>/i.test(res.text) || !/<title>[^<]+<\/title>/i.test(res.text))
      problems.push("not a complete HTML page");
    return problems;
  }
  if (mediaType !== "application/json")
    return [...problems, `a JSON error body was expected, got ${mediaType || "no content type"}`];
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [...problems, "the body is not JSON"];
  }
  // The OpenAI-compatible paths answer in OpenAI's body, whose `type` stands for the status.
  const openAi = target.app === "api" && !options.outsideOperation && isOpenAiPath(target.template);
  const schema = documented?.["application/json"]?.schema ?? fallbackErrorSchema(target, res.status, openAi);
  problems.push(...target.schemas.errors(schema, body).map((e) => `body ${e}`));
  if (openAi) {
    const type = OPENAI_TYPES[res.status] ?? (res.status >= 500 ? "server_error" : "invalid_request_error");
    if (body?.error?.type !== type) problems.push(`error.type ${JSON.stringify(body?.error?.type)} is not ${type}`);
  } else if (body?.status_code !== res.status)
    problems.push(`status_code ${JSON.stringify(body?.status_code)} is not the status ${res.status}`);
  return problems;
}
