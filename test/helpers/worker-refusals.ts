/**
 * Every refusal a worker (or a swarm type) makes because of what the request said, with requests
 * that would reach it and what the API must answer them instead, before any run is stored.
 *
 * `test/unit/worker-refusal-sites.test.ts` holds this list to the worker source: a new `throw` (or
 * error made with `new …Error(`) in `workers/handlers`, `workers/agents`, `workers/swarms` (or the
 * shared code they refuse through) fails the suite until it is listed here, with requests the API
 * must refuse, or in `worker-throws.ts` with the reason it is not a refusal of the request.
 * `test/integration/worker-refusals.test.ts` sends every request through real HTTP to every
 * endpoint it applies to.
 */

/** Schema refusal: 422 with an entry at `at` (the path after `body`, as an agent or swarm completion names it). */
type Refused422 = { status: 422; at: (string | number)[] };
/** Whole-request rule: 400 with this code and a detail matching `detail`. */
type Refused400 = { status: 400; code: string; detail: RegExp };
export type Refusal = Refused422 | Refused400;

/** A request (built around `marker`, which lands in an agent's system prompt) and its refusal. */
export interface Probe {
  body: (marker: string) => Record<string, unknown>;
  refused: Refusal;
}

export interface RefusalCase {
  name: string;
  /** An agent completion body; also sent as the only item of an agent batch. */
  agent?: Probe;
  /** A SwarmRequest (swarm completion); also sent as the only item of a swarm batch. */
  swarm?: Probe;
  /** A reasoning agent (`POST /v1/reasoning-agent/completions`). */
  reasoning?: Probe;
  /** Refusals that depend on which providers have keys: checked on a deployment without the LLM gateway. */
  withoutGateway?: boolean;
}

export interface RefusalSite {
  /** What the worker says (its message or code). */
  refusal: string;
  /** Where it lives. */
  file: string;
  /** Text of the `throw` line in `file`; null for a failure no `throw` states (a crash, a provider's refusal). */
  throwText: string | null;
  cases: RefusalCase[];
}

const agentBody = (marker: string, extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  agent_config: { agent_name: "Door", system_prompt: marker, ...config },
  task: `${marker} task`,
  ...extra,
});

const swarmBody = (
  marker: string,
  extra: Record<string, unknown> = {},
  agents: Record<string, unknown>[] = [{ agent_name: "A" }, { agent_name: "B" }],
) => ({
  swarm_type: "SequentialWorkflow",
  agents: agents.map((a, i) => (i === 0 ? { system_prompt: marker, ...a } : a)),
  task: `${marker} task`,
  ...extra,
});

/** Never connected to: the API refuses every request naming it here before any run exists. */
const MCP_URL = "https://mcp.example.com/mcp";
const invalidSwarm = (detail: RegExp): Refused400 => ({ status: 400, code: "INVALID_SWARM", detail });
const at = (...path: (string | number)[]): Refused422 => ({ status: 422, at: path });
const noTask = (body: Record<string, unknown>) => {
  const { task: _task, ...rest } = body;
  return rest;
};

/**
 * `llm_args` on an agent completion's agent and on a swarm's first agent, refused at `field` under each
 * agent's `llm_args`.
 */
const llmArgsCase = (name: string, llmArgs: Record<string, unknown>, ...field: (string | number)[]): RefusalCase => ({
  name,
  agent: {
    body: (m) => agentBody(m, {}, { model_name: "gpt-4o-mini", llm_args: llmArgs }),
    refused: at("agent_config", "llm_args", ...field),
  },
  swarm: {
    body: (m) =>
      swarmBody(m, {}, [{ agent_name: "A", model_name: "gpt-4o-mini", llm_args: llmArgs }, { agent_name: "B" }]),
    refused: at("agents", 0, "llm_args", ...field),
  },
});

export const REFUSAL_SITES: RefusalSite[] = [
  {
    refusal: "BAD_REQUEST No task given for this agent",
    file: "workers/handlers/agent-run.handler.ts",
    throwText: "No task given for this agent",
    cases: [
      {
        name: "a task of only whitespace",
        agent: { body: (m) => agentBody(m, { task: " \n\t " }), refused: at("task") },
        swarm: {
          body: (m) => swarmBody(m, { task: " \n\t " }),
          refused: at("task"),
        },
      },
      {
        name: "no task (the hosted schema leaves it optional in agent batch items)",
        agent: { body: (m) => noTask(agentBody(m)), refused: at("task") },
      },
      { name: "a null task", agent: { body: (m) => agentBody(m, { task: null }), refused: at("task") } },
    ],
  },
  {
    refusal:
      "INVALID_SWARM the request rules' problems (shared/swarms/swarm-rules.ts): the API's 400, and the worker's backstop before a run starts",
    file: "shared/swarms/swarm-rules.ts",
    throwText: "INVALID_SWARM",
    cases: [
      {
        name: "a swarm_type that is no type",
        swarm: { body: (m) => swarmBody(m, { swarm_type: "NoSuchSwarm" }), refused: at("swarm_type") },
      },
      {
        name: "a debate of two agents",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "DebateWithJudge" }),
          refused: invalidSwarm(/DebateWithJudge needs exactly 3 agents/),
        },
      },
      {
        name: "a grid without tasks",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "BatchedGridWorkflow" }),
          refused: invalidSwarm(/BatchedGridWorkflow needs tasks/),
        },
      },
      {
        name: "a director alone",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "HierarchicalSwarm" }, [{ agent_name: "Boss", role: "director" }]),
          refused: invalidSwarm(/HierarchicalSwarm needs at least one worker/),
        },
      },
      {
        name: "a router alone",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "MultiAgentRouter" }, [{ agent_name: "R", role: "router" }]),
          refused: invalidSwarm(/MultiAgentRouter needs at least one agent to route to/),
        },
      },
      {
        name: "a planner and a judge with no worker",
        swarm: {
          body: (m) =>
            swarmBody(m, { swarm_type: "PlannerWorkerSwarm" }, [
              { agent_name: "P", role: "planner" },
              { agent_name: "J", role: "judge" },
            ]),
          refused: invalidSwarm(/PlannerWorkerSwarm needs at least one worker/),
        },
      },
      {
        name: "a council of a chairman and one member",
        swarm: {
          body: (m) =>
            swarmBody(m, { swarm_type: "LLMCouncil" }, [{ agent_name: "A", role: "chairman" }, { agent_name: "B" }]),
          refused: invalidSwarm(/LLMCouncil needs at least 2 members besides the chairman/),
        },
      },
      {
        name: "two agents of the same name",
        swarm: {
          body: (m) => swarmBody(m, {}, [{ agent_name: "Twin" }, { agent_name: "Twin" }]),
          refused: invalidSwarm(/Agent names must be unique within a swarm: Twin/),
        },
      },
    ],
  },
  {
    refusal: "BAD_REQUEST rearrange_flow step … is empty or has an empty agent name",
    file: "shared/swarms/flow.ts",
    throwText: "is empty or has an empty agent name",
    cases: [
      {
        name: "a flow with an empty step",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "AgentRearrange", rearrange_flow: "A -> , B" }),
          refused: invalidSwarm(/step 2 is empty/),
        },
      },
      {
        name: "a flow of only whitespace",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "AgentRearrange", rearrange_flow: " \t " }),
          refused: invalidSwarm(/AgentRearrange needs a rearrange_flow/),
        },
      },
    ],
  },
  {
    refusal: "BAD_REQUEST rearrange_flow names agents that are not in the swarm",
    file: "shared/swarms/flow.ts",
    throwText: "rearrange_flow names agents that are not in the swarm",
    cases: [
      {
        name: "a flow naming an unknown agent",
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "AgentRearrange", rearrange_flow: "A -> Ghost" }),
          refused: invalidSwarm(/not in the swarm: Ghost/),
        },
      },
    ],
  },
  {
    refusal: "BAD_REQUEST No model for the internal …: the request has no agents",
    file: "workers/swarms/internal-agent.ts",
    throwText: "No model for the internal",
    cases: [
      {
        name: "a vote without agents",
        swarm: {
          body: (m) => ({ ...swarmBody(m, { swarm_type: "MajorityVoting" }), agents: [], rules: m }),
          refused: invalidSwarm(/MajorityVoting needs at least 2 agents/),
        },
      },
    ],
  },
  {
    refusal: "UNKNOWN_MODEL Unknown model '…' (resolveModel, from agent-runner and structured-decision)",
    file: "shared/llm/providers.ts",
    throwText: "Unknown model '${modelName}'",
    cases: [
      {
        name: "a handoff on an unknown model",
        withoutGateway: true,
        agent: {
          body: (m) =>
            agentBody(
              m,
              {},
              { model_name: "gpt-4.1", handoffs: [{ agent_name: "Helper", model_name: "mystery-model" }] },
            ),
          refused: {
            status: 400,
            code: "UNKNOWN_MODEL",
            detail: /handoffs\[0\]\.model_name: Unknown model 'mystery-model'/,
          },
        },
        swarm: {
          body: (m) =>
            swarmBody(m, {}, [
              {
                agent_name: "A",
                model_name: "gpt-4.1",
                handoffs: [{ agent_name: "Helper", model_name: "mystery-model" }],
              },
              { agent_name: "B", model_name: "gpt-4.1" },
            ]),
          refused: {
            status: 400,
            code: "UNKNOWN_MODEL",
            detail: /agents\[0\]\.handoffs\[0\]\.model_name: Unknown model 'mystery-model'/,
          },
        },
      },
      {
        name: "a reasoning agent on an unknown model",
        withoutGateway: true,
        reasoning: {
          body: (m) => ({ swarm_type: "self-consistency", model_name: "mystery-model", task: m }),
          refused: { status: 400, code: "UNKNOWN_MODEL", detail: /^model_name: Unknown model 'mystery-model'/ },
        },
      },
    ],
  },
  {
    refusal: "PROVIDER_NOT_CONFIGURED Model '…' is served by …, which has no API key configured",
    file: "shared/llm/providers.ts",
    throwText: "which has no API key configured",
    cases: [
      {
        name: "an agent on a provider without a key",
        withoutGateway: true,
        agent: {
          body: (m) => agentBody(m, {}, { model_name: "claude-3-5-haiku-latest" }),
          refused: {
            status: 400,
            code: "PROVIDER_NOT_CONFIGURED",
            detail: /agent_config\.model_name: Model 'claude-3-5-haiku-latest' is served by anthropic/,
          },
        },
        swarm: {
          body: (m) =>
            swarmBody(m, {}, [
              { agent_name: "A", model_name: "gpt-4.1" },
              { agent_name: "B", model_name: "claude-3-5-haiku-latest" },
            ]),
          refused: {
            status: 400,
            code: "PROVIDER_NOT_CONFIGURED",
            detail: /agents\[1\]\.model_name: Model 'claude-3-5-haiku-latest'/,
          },
        },
      },
      ...(
        [
          ["HierarchicalSwarm", "director_model_name"],
          ["LLMCouncil", "chairman_model"],
          ["CouncilAsAJudge", "council_judge_model_name"],
        ] as const
      ).map(([swarmType, field]) => ({
        name: `a ${swarmType} ${field} on a provider without a key`,
        withoutGateway: true,
        swarm: {
          body: (m: string) =>
            swarmBody(m, { swarm_type: swarmType, [field]: "claude-3-5-haiku-latest" }, [
              { agent_name: "A", model_name: "gpt-4.1" },
              { agent_name: "B", model_name: "gpt-4.1" },
            ]),
          refused: {
            status: 400 as const,
            code: "PROVIDER_NOT_CONFIGURED",
            detail: new RegExp(`${field}: Model 'claude-3-5-haiku-latest'`),
          },
        },
      })),
      {
        name: "built-in agents on a DEFAULT_MODEL without a key",
        withoutGateway: true,
        swarm: {
          body: (m) => ({ swarm_type: "CouncilAsAJudge", agents: [], task: `${m} task`, rules: m }),
          refused: { status: 400, code: "PROVIDER_NOT_CONFIGURED", detail: /CouncilAsAJudge without agents/ },
        },
      },
      {
        name: "a reasoning agent on DEFAULT_MODEL without a key (no model_name)",
        withoutGateway: true,
        reasoning: {
          body: (m) => ({ swarm_type: "reasoning-duo", task: m }),
          refused: {
            status: 400,
            code: "PROVIDER_NOT_CONFIGURED",
            detail: /^model_name: Model 'claude-sonnet-4-20250514'/,
          },
        },
      },
    ],
  },
  {
    refusal: "a crash (TypeError) on a history message that is not an object, retried as infrastructure trouble",
    file: "workers/agents/messages.ts",
    throwText: null,
    cases: [
      {
        name: "history {messages: [null]}",
        agent: { body: (m) => agentBody(m, { history: { messages: [null] } }), refused: at("history", "messages", 0) },
      },
      {
        name: "a history message of only whitespace (providers refuse empty text)",
        agent: {
          body: (m) => agentBody(m, { history: [{ role: "user", content: "  " }] }),
          refused: at("history", 0, "content"),
        },
      },
    ],
  },
  {
    refusal: "a crash (TypeError) on a swarm message that is not an object; agents run on nothing without input",
    file: "shared/swarms/opening.ts",
    throwText: null,
    cases: [
      {
        name: "messages {messages: [null]}",
        swarm: {
          body: (m) => swarmBody(m, { messages: { messages: [null] } }),
          refused: at("messages", "messages", 0),
        },
      },
      {
        name: "messages of only whitespace",
        swarm: {
          body: (m) => noTask(swarmBody(m, { messages: [{ role: "user", content: " \n " }] })),
          refused: at("messages", 0, "content"),
        },
      },
      {
        name: "one message object of only whitespace",
        swarm: {
          body: (m) => noTask(swarmBody(m, { messages: { role: "user", content: "\t" } })),
          refused: at("messages", "content"),
        },
      },
      {
        name: "messages {messages: []} as the only input",
        swarm: {
          body: (m) => noTask(swarmBody(m, { messages: { messages: [] } })),
          refused: at("task"),
        },
      },
      {
        name: "tasks of only whitespace",
        swarm: { body: (m) => noTask(swarmBody(m, { tasks: ["   "] })), refused: at("tasks", 0) },
      },
    ],
  },
  {
    refusal: "the provider refuses the image (LLM_CALL_FAILED after the run was stored and billed)",
    file: "workers/agents/messages.ts",
    throwText: null,
    cases: [
      {
        name: "an image of only whitespace",
        agent: { body: (m) => agentBody(m, { img: "   " }), refused: at("img") },
        swarm: { body: (m) => swarmBody(m, { img: "   " }), refused: at("img") },
      },
      {
        name: "an image that is no URL, data URL or base64",
        agent: { body: (m) => agentBody(m, { imgs: ["not an image"] }), refused: at("imgs", 0) },
      },
    ],
  },
  {
    refusal: "a client tool dropped in silence, or the provider refusing the call's tools",
    file: "workers/agents/function-tools.ts",
    throwText: null,
    cases: [
      {
        name: "a tool without a function name",
        agent: {
          body: (m) =>
            agentBody(m, {}, { tools_list_dictionary: [{ type: "function", function: { description: "nameless" } }] }),
          refused: at("agent_config", "tools_list_dictionary", 0, "function", "name"),
        },
        swarm: {
          body: (m) =>
            swarmBody(m, {}, [
              { agent_name: "A", tools_list_dictionary: [{ description: "nameless" }] },
              { agent_name: "B" },
            ]),
          refused: at("agents", 0, "tools_list_dictionary", 0, "name"),
        },
      },
      {
        name: "a function name providers refuse",
        agent: {
          body: (m) => agentBody(m, {}, { tools_list_dictionary: [{ name: "get weather" }] }),
          refused: at("agent_config", "tools_list_dictionary", 0, "name"),
        },
      },
      {
        name: "two tools of one name",
        agent: {
          body: (m) =>
            agentBody(
              m,
              {},
              { tools_list_dictionary: [{ name: "lookup" }, { type: "function", function: { name: "lookup" } }] },
            ),
          refused: at("agent_config", "tools_list_dictionary", 1),
        },
      },
    ],
  },
  {
    refusal: "a handoff the model can never reach: another handoff of the agent has its name",
    file: "workers/agents/handoffs.ts",
    throwText: null,
    cases: [
      {
        name: "two handoffs of one name",
        agent: {
          body: (m) => agentBody(m, {}, { handoffs: [{ agent_name: "Helper" }, { agent_name: " Helper " }] }),
          refused: at("agent_config", "handoffs", 1),
        },
        swarm: {
          body: (m) => swarmBody(m, {}, [{ agent_name: "A", handoffs: [{}, {}] }, { agent_name: "B" }]),
          refused: at("agents", 0, "handoffs", 1),
        },
      },
    ],
  },
  {
    refusal: "MCP_UNAVAILABLE: fetch refuses a header of the MCP config before any server is reached",
    file: "workers/agents/mcp/mcp-connection.ts",
    throwText: null,
    cases: [
      {
        name: "an MCP header name that is no HTTP token",
        agent: {
          body: (m) => agentBody(m, {}, { mcp_config: { url: MCP_URL, headers: { "x tenant": "bees" } } }),
          refused: at("agent_config", "mcp_config", "headers", "x tenant"),
        },
        swarm: {
          body: (m) =>
            swarmBody(m, {}, [
              { agent_name: "A", mcp_config: { url: MCP_URL, headers: { "x tenant": "bees" } } },
              { agent_name: "B" },
            ]),
          refused: at("agents", 0, "mcp_config", "headers", "x tenant"),
        },
      },
      {
        name: "an MCP header value or token with a line break",
        agent: {
          body: (m) =>
            agentBody(
              m,
              {},
              { mcp_configs: { connections: [{ url: MCP_URL, authorization_token: "tok\r\nX-Injected: 1" }] } },
            ),
          refused: at("agent_config", "mcp_configs", "connections", 0, "authorization_token"),
        },
      },
    ],
  },
  {
    refusal: "the provider refuses the request's structured-output setting or model name",
    file: "workers/agents/llm-request.ts",
    throwText: null,
    cases: [
      {
        name: "a response_format providers do not take",
        agent: {
          body: (m) => agentBody(m, {}, { llm_args: { response_format: { type: "xml" } } }),
          refused: at("agent_config", "llm_args", "response_format", "type"),
        },
      },
      {
        name: "a json_schema response_format without its schema object",
        agent: {
          body: (m) => agentBody(m, {}, { llm_args: { response_format: { type: "json_schema" } } }),
          refused: at("agent_config", "llm_args", "response_format", "json_schema"),
        },
      },
      {
        name: "a model name of only whitespace",
        agent: { body: (m) => agentBody(m, {}, { model_name: "   " }), refused: at("agent_config", "model_name") },
        swarm: {
          body: (m) => swarmBody(m, { swarm_type: "HeavySwarm", heavy_swarm_worker_model_name: "  " }),
          refused: at("heavy_swarm_worker_model_name"),
        },
      },
    ],
  },
  {
    refusal:
      "the provider refuses an llm_args option outside the range it documents (a 4xx failing the run after it was stored and billed)",
    file: "workers/agents/llm-request.ts",
    throwText: null,
    cases: [
      llmArgsCase("a temperature above 2", { temperature: 7 }, "temperature"),
      llmArgsCase("a negative temperature", { temperature: -0.5 }, "temperature"),
      llmArgsCase("top_p above 1", { top_p: 5 }, "top_p"),
      llmArgsCase("n of 0", { n: 0 }, "n"),
      llmArgsCase("n of 3 (the service reads one answer per call)", { n: 3 }, "n"),
      llmArgsCase("a presence_penalty above 2", { presence_penalty: 3 }, "presence_penalty"),
      llmArgsCase("a frequency_penalty below -2", { frequency_penalty: -2.5 }, "frequency_penalty"),
      llmArgsCase("a seed that is no integer", { seed: 1.5 }, "seed"),
      llmArgsCase("five stop sequences", { stop: ["a", "b", "c", "d", "e"] }, "stop"),
      llmArgsCase("a stop that is no string", { stop: 7 }, "stop"),
      llmArgsCase("a logit_bias key that is no token id", { logit_bias: { hello: 5 } }, "logit_bias", "hello"),
      llmArgsCase("a logit_bias above 100", { logit_bias: { "50256": 101 } }, "logit_bias", "50256"),
      llmArgsCase("logprobs that is no boolean", { logprobs: "sometimes" }, "logprobs"),
      llmArgsCase("top_logprobs above 20", { logprobs: true, top_logprobs: 21 }, "top_logprobs"),
      llmArgsCase("top_logprobs without logprobs", { top_logprobs: 3 }, "top_logprobs"),
      llmArgsCase("a user that is no string", { user: 42 }, "user"),
      llmArgsCase("parallel_tool_calls that is no boolean", { parallel_tool_calls: "often" }, "parallel_tool_calls"),
      llmArgsCase("a reasoning_effort providers do not know", { reasoning_effort: "extreme" }, "reasoning_effort"),
      llmArgsCase("metadata with a value that is no string", { metadata: { team: 7 } }, "metadata", "team"),
      llmArgsCase(
        "metadata of 17 keys",
        { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) },
        "metadata",
      ),
      llmArgsCase("metadata that is no object", { metadata: "team" }, "metadata"),
      {
        name: "a handoff's temperature above 2",
        agent: {
          body: (m) => agentBody(m, {}, { handoffs: [{ agent_name: "Helper", llm_args: { temperature: 9 } }] }),
          refused: at("agent_config", "handoffs", 0, "llm_args", "temperature"),
        },
        swarm: {
          body: (m) =>
            swarmBody(m, {}, [
              { agent_name: "A", handoffs: [{ agent_name: "Helper", llm_args: { n: 2 } }] },
              { agent_name: "B" },
            ]),
          refused: at("agents", 0, "handoffs", 0, "llm_args", "n"),
        },
      },
    ],
  },
  {
    refusal:
      "an llm_args option not on the allow-list for the agent's model (shared/llm/provider-options.ts): a gateway's routing, keys, proxy, headers, query or mocked answer, another provider's extra, the simulator's controls where it does not answer; dropped in silence",
    file: "workers/agents/llm-request.ts",
    throwText: null,
    cases: [
      llmArgsCase("llm_args.mock_response", { mock_response: "x" }, "mock_response"),
      llmArgsCase("llm_args.extra_body", { extra_body: { temperature: 1 } }, "extra_body"),
      llmArgsCase(
        "llm_args.model_list",
        { model_list: [{ model_name: "gpt-4o-mini", litellm_params: { api_base: "http://10.0.0.1" } }] },
        "model_list",
      ),
      llmArgsCase("llm_args.proxy", { proxy: "http://10.0.0.1:3128" }, "proxy"),
      llmArgsCase("llm_args.extra_query", { extra_query: { "api-version": "1" } }, "extra_query"),
      llmArgsCase("llm_args.extra_headers", { extra_headers: { "X-Org": "o" } }, "extra_headers"),
      llmArgsCase("llm_args.api_key", { api_key: "sk-x" }, "api_key"),
      llmArgsCase("llm_args.fallbacks", { fallbacks: ["gpt-4o"] }, "fallbacks"),
      llmArgsCase("top_k for an OpenAI model, through the gateway", { top_k: 40 }, "top_k"),
      { ...llmArgsCase("top_k for an OpenAI model", { top_k: 40 }, "top_k"), withoutGateway: true },
      {
        ...llmArgsCase("sim_latency_ms where the simulator does not answer", { sim_latency_ms: 5 }, "sim_latency_ms"),
        withoutGateway: true,
      },
    ],
  },
  {
    refusal:
      "an llm_args field the service sets itself (model, messages, tools, tool_choice, stream, stream_options, the output cap, the service tier), ignored in silence",
    file: "workers/agents/llm-request.ts",
    throwText: null,
    cases: [
      llmArgsCase("llm_args.model", { model: "gpt-4o" }, "model"),
      llmArgsCase("llm_args.messages", { messages: [{ role: "user", content: "hi" }] }, "messages"),
      llmArgsCase("llm_args.tools", { tools: [] }, "tools"),
      llmArgsCase("llm_args.tool_choice", { tool_choice: "none" }, "tool_choice"),
      llmArgsCase("llm_args.stream", { stream: true }, "stream"),
      llmArgsCase("llm_args.stream_options of null", { stream_options: null }, "stream_options"),
      llmArgsCase(
        "llm_args.max_completion_tokens (it would outrank the budget's cap)",
        { max_completion_tokens: 1_000_000 },
        "max_completion_tokens",
      ),
      llmArgsCase("llm_args.max_tokens of 0", { max_tokens: 0 }, "max_tokens"),
      llmArgsCase("llm_args.service_tier", { service_tier: "priority" }, "service_tier"),
    ],
  },
];
