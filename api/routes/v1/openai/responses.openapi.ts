import Joi from "joi";
import type { Operation } from "../../../openapi/operation";
import { openAiError } from "../../../openapi/shared-parts";
import { responseCreateSchema } from "../../../schemas/response.schema";
import {
  deletedResponseSchema,
  inputItemListSchema,
  responseObjectSchema,
} from "../../../schemas/openai-responses.schema";
import { eventStream, RUN_HEADERS } from "../run.openapi";
import { RESPONSES_PATH } from "./openai-paths";

const ID = "resp_3d2c1b0a9f8e4d7c8b6a5f4e3d2c1b0a";
const responseParams = Joi.object({
  response_id: Joi.string().description("The response's `id` (`resp_…`)"),
});

/** `GET /v1/responses/{response_id}`'s query: the stream to resume, when one is asked for. */
export const responseReadQuerySchema = Joi.object({
  stream: Joi.boolean().description("Stream the response's events (a response created with `stream: true`)"),
  starting_after: Joi.number()
    .integer()
    .min(0)
    .description("With `stream`: only the events after this `sequence_number`"),
  include_obfuscation: Joi.boolean().description("Accepted and ignored: events carry no obfuscation padding"),
});

/** `GET /v1/responses/{response_id}/input_items`'s query. */
export const inputItemsQuerySchema = Joi.object({
  after: Joi.string().max(200).description("List the items after this item id"),
  limit: Joi.number().integer().min(1).max(100).default(20),
  order: Joi.valid("asc", "desc").default("desc").description("`desc` (default): the last item first"),
  include: Joi.array().max(0).single().description("Must be empty: no extra item data is kept"),
});

const notFound = openAiError(
  "No such response for this API key's account: another account's, one stored with `store: false`, or one deleted (`not_found`)",
);

const streamed = eventStream(
  "With `stream: true`: OpenAI's Responses events, each `event: <type>` with `data` carrying `type` and `sequence_number` (0, 1, 2… the same on every replay)",
  [
    `data: {"type":"response.created","sequence_number":0,"response":{"id":"${ID}","status":"in_progress"}}`,
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"delta":"Wax"}',
    `event: response.completed\ndata: {"type":"response.completed","sequence_number":9,"response":{"id":"${ID}","status":"completed"}}`,
  ],
);

const createOperation: Operation = {
  method: "post",
  path: RESPONSES_PATH,
  summary: "OpenAI-compatible response",
  description:
    "OpenAI's Responses API, answered by one `response` run (one model call, with the limits, budget, billing and idempotency of every run): string or item input, `instructions`, function tools and their calls, `previous_response_id`, `store`, streaming, and `background: true` (answered at once `queued`; read, stream or cancel it later). Built-in tools, conversations, prompt templates, files and reasoning summaries are refused naming the parameter. See docs/openai-responses.md.",
  tags: ["OpenAI compatible"],
  access: "apiKey",
  errorBodies: "openai",
  headers: RUN_HEADERS,
  request: {
    body: responseCreateSchema,
    examples: {
      simple: {
        summary: "Instructions and a question",
        value: { model: "gpt-4.1", instructions: "You are concise.", input: "Name three uses of beeswax." },
      },
    },
  },
  responses: {
    200: { description: "The response (`queued` when `background`)", body: responseObjectSchema, content: streamed },
    400: openAiError(
      "The body does not match the schema, or asks for what Apiary cannot honour (built-in tools, `conversation`, `prompt`, files, `include`…; `param` names it)",
    ),
    404: openAiError(
      "The model cannot be served here (`model_not_found`), or `previous_response_id` names no response",
    ),
    409: openAiError("An `Idempotency-Key` conflict, or the run was cancelled (`run_cancelled`)"),
    500: openAiError("The run failed (`run_failed`, with `job_id`), or an internal error (with `request_id`)"),
    504: openAiError("The run is still going when the wait ends (`run_timeout`, with `job_id`)"),
  },
};

const readOperations: Operation[] = [
  {
    method: "get",
    path: `${RESPONSES_PATH}/{response_id}`,
    summary: "Read a response, or stream its events again",
    description:
      "The response as it stands: `queued` or `in_progress` while its run goes on, then its output. With `stream=true` (a response created with `stream: true`), its events from the start, or after `starting_after`, then live until it ends.",
    tags: ["OpenAI compatible"],
    access: "apiKey",
    errorBodies: "openai",
    pathParams: responseParams,
    query: responseReadQuerySchema,
    responses: {
      200: { description: "The response", body: responseObjectSchema, content: streamed },
      400: openAiError("`stream=true` for a response created without `stream: true`"),
      404: notFound,
      410: openAiError("`starting_after` for a response whose events expired (an hour after the last)"),
    },
  },
  {
    method: "delete",
    path: `${RESPONSES_PATH}/{response_id}`,
    summary: "Delete a response",
    description:
      "Erases an ended response's input, instructions, metadata and output (its bill stays); it then reads as 404 and cannot be continued.",
    tags: ["OpenAI compatible"],
    access: "apiKey",
    errorBodies: "openai",
    pathParams: responseParams,
    responses: {
      200: { description: "Deleted", body: deletedResponseSchema },
      404: notFound,
      409: openAiError("The response is still queued or in progress: cancel it first (`response_in_progress`)"),
    },
  },
  {
    method: "post",
    path: `${RESPONSES_PATH}/{response_id}/cancel`,
    summary: "Cancel a background response",
    description:
      "Cancels a `background` response's run as `DELETE /v1/jobs/{job_id}` does, and answers the response (`cancelled`, or as it ended when it already had).",
    tags: ["OpenAI compatible"],
    access: "apiKey",
    errorBodies: "openai",
    pathParams: responseParams,
    responses: {
      200: { description: "The response", body: responseObjectSchema },
      400: openAiError("The response was not created with `background: true`"),
      404: notFound,
    },
  },
  {
    method: "get",
    path: `${RESPONSES_PATH}/{response_id}/input_items`,
    summary: "List a response's input items",
    description: "The items the response was given, each with its id, in pages of `limit` after the item `after`.",
    tags: ["OpenAI compatible"],
    access: "apiKey",
    errorBodies: "openai",
    pathParams: responseParams,
    query: inputItemsQuerySchema,
    responses: {
      200: { description: "A page of input items", body: inputItemListSchema },
      400: openAiError("`after` names no item of this response"),
      404: notFound,
    },
  },
];

/** The Responses API's operations: creating one, and reading, deleting, cancelling and listing its input. */
export const responseOperations: Operation[] = [createOperation, ...readOperations];
