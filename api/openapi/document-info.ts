import { config } from "../../shared/config";
import { version } from "../../package.json";
import type { DocumentInfo } from "./document";

/** Relative first, so the page's "try it out" calls the server that served it; then the configured address. */
const serversAt = (publicUrl: string) => [
  { url: "/", description: "This server" },
  { url: publicUrl, description: "The configured public address" },
];

const META_TAG = { name: "Meta", description: "Health and this documentation" };

/** The execution API's document (port 8080): `/v1` and `/health`. */
export const EXECUTION_API_INFO: DocumentInfo = {
  title: "Apiary execution API",
  version,
  description: [
    "Runs LLM agent swarms and single agents behind a synchronous HTTP API, compatible with clients of the hosted Swarms API.",
    "",
    "Every `/v1` call needs an API key, in `x-api-key` or as `Authorization: Bearer <key>`. Errors are `{detail, code, status_code}`; a request that does not match its schema is 422 with every problem in `detail`.",
    "Bodies are JSON (`application/json` or any `+json` type) in UTF-8, at most `BODY_LIMIT` (413 above it). A body nested deeper than 64 levels is 400 `INVALID_BODY`; a string or key with a NUL character or an unpaired surrogate is 422 at its location.",
    "Runs wait for their result up to `SYNC_WAIT_MS` (`Prefer: wait=<s>` waits less; `Prefer: respond-async` answers 202 at once); `GET /v1/jobs/{job_id}` reads any run later.",
    "",
    `The platform API (prompts, token launch) has its own document: ${config.http.platformUrl}/docs.`,
  ].join("\n"),
  servers: serversAt(config.http.publicBaseUrl),
  tags: [
    { name: "Swarms", description: "Run a swarm of agents, or many" },
    { name: "Agents", description: "Run one agent, or many" },
    { name: "Jobs", description: "Read or cancel any run of your account" },
    { name: "Webhooks", description: "The secret your run webhooks are signed with" },
    { name: "Account", description: "Your key's runs and rate limits" },
    { name: "Catalogue", description: "Swarm types and models this deployment serves" },
    {
      name: "OpenAI compatible",
      description: "OpenAI's chat completions and model list, for OpenAI's SDKs (errors in OpenAI's shape)",
    },
    META_TAG,
  ],
};

/** The platform's document (port 8081): `/api` and the listing pages. */
export const PLATFORM_API_INFO: DocumentInfo = {
  title: "Apiary platform API",
  version,
  description: [
    "The prompt marketplace (create, edit, query prompts), token launches, and the listing pages.",
    "",
    "Authenticate with `Authorization: Bearer <API key or session token>`. Errors are `{error, message, code?, details?, status_code}` with the extras of their status; schema problems are 400 `Validation error` with `errors`.",
    "",
    `The execution API (swarms, agents, jobs) has its own document: ${config.http.publicBaseUrl}/docs.`,
  ].join("\n"),
  servers: serversAt(config.http.platformUrl),
  tags: [
    { name: "Prompts", description: "The prompt marketplace" },
    { name: "Bundles", description: "Bundles of a seller's prompts and agents, listed as one" },
    { name: "Moderation", description: "Review of marketplace prompts: only moderators approve or reject" },
    { name: "Token launch", description: "An agent listing and its token in one request" },
    { name: "Pages", description: "Listing pages of created items" },
    META_TAG,
  ],
};
