import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { batchedGridWorkflowRequestSchema } from "../../../schemas/batched-grid-workflow-request.schema";
import { graphWorkflowRequestSchema } from "../../../schemas/graph-workflow-request.schema";
import {
  batchedGridWorkflowResponseSchema,
  graphWorkflowResponseSchema,
} from "../../../schemas/workflow-response.schema";
import {
  EGRESS_400,
  EXAMPLE_TIMESTAMP,
  MARKETPLACE_400,
  RUN_HEADERS,
  acceptedResponse,
  publishingResponses,
  runErrorResponses,
} from "../run.openapi";

const JOB_ID = "3d1f7c2a-8b4e-4f60-9c1d-2e5a6b7c8d9e";

const node = (agent_name: string, system_prompt: string) => ({
  agent_name,
  system_prompt,
  model_name: "gpt-4.1",
  max_tokens: 1024,
  temperature: 0.3,
});

const usage = { input_tokens: 1250, output_tokens: 3200, total_tokens: 4450, token_cost: 0.034, cost_per_agent: 0.03 };

/** `POST /v1/graph-workflow/completions`. */
export const graphWorkflowOperation: Operation = {
  method: "post",
  path: "/v1/graph-workflow/completions",
  summary: "Run a graph workflow",
  description: [
    "Agents are the nodes of a directed acyclic graph, named by `agent_name`; `edges` say which node's output another reads. A node runs once all its sources have finished, reading the task and their outputs, attributed; nodes whose sources are done run in parallel. `max_loops` > 1 runs the whole graph again, its entry points reading the last run's end-point outputs. What each node reads: docs/workflows.md.",
    "A graph that cannot run is a 400 (`INVALID_WORKFLOW`) naming every problem and its node(s), before any LLM call: a cycle, an edge or entry/end point naming no agent, a duplicate or missing `agent_name`, an entry point with sources, a node or end point no entry point leads to.",
  ].join("\n\n"),
  tags: ["Workflows"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: graphWorkflowRequestSchema,
    examples: {
      diamond: {
        summary: "Research in two branches, then a synthesis",
        value: {
          name: "Market study",
          description: "Two researchers feed an analyst",
          agents: [
            node("Planner", "You split the question into two research angles."),
            node("MarketResearcher", "You research market trends."),
            node("CompetitorAnalyst", "You research competitors."),
            node("Synthesizer", "You combine research into three recommendations."),
          ],
          edges: [
            { source: "Planner", target: "MarketResearcher" },
            { source: "Planner", target: "CompetitorAnalyst", metadata: { priority: "high" } },
            { source: "MarketResearcher", target: "Synthesizer" },
            { source: "CompetitorAnalyst", target: "Synthesizer" },
          ],
          entry_points: ["Planner"],
          end_points: ["Synthesizer"],
          task: "Should a small bakery start selling online?",
          max_loops: 1,
        },
      },
    },
  },
  responses: {
    200: {
      description: "The workflow succeeded: every node's output under its name",
      body: graphWorkflowResponseSchema,
      examples: {
        diamond: {
          value: {
            job_id: JOB_ID,
            name: "Market study",
            description: "Two researchers feed an analyst",
            status: "success",
            outputs: {
              Planner: "1. Demand online … 2. Local competitors …",
              MarketResearcher: "Online bakery sales grew …",
              CompetitorAnalyst: "Two nearby bakeries deliver …",
              Synthesizer: "1. Start with preorders …",
            },
            usage,
            timestamp: EXAMPLE_TIMESTAMP,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError(
      `The graph cannot run (\`INVALID_WORKFLOW\`, naming its node(s)), an unknown model, ${MARKETPLACE_400}, ${EGRESS_400}`,
    ),
    ...runErrorResponses,
    ...publishingResponses,
  },
};

/** `POST /v1/batched-grid-workflow/completions`. */
export const batchedGridWorkflowOperation: Operation = {
  method: "post",
  path: "/v1/batched-grid-workflow/completions",
  summary: "Run every agent on every task",
  description: [
    "The BatchedGridWorkflow swarm type as its own endpoint: every agent of `agent_completions` takes every task of `tasks`, all cells in parallel; from the second of `max_loops` rounds each cell improves its own previous answer. `imgs[i]`, when given, goes with `tasks[i]` to every agent on it.",
    "`outputs` holds one object per task, in task order, with each agent's last answer under its name. At most 100 agents, 100 tasks and 1000 cells; agent names must differ (400 `INVALID_WORKFLOW`).",
  ].join("\n\n"),
  tags: ["Workflows"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: batchedGridWorkflowRequestSchema,
    examples: {
      reviews: {
        summary: "Two analysts, two product segments",
        value: {
          name: "Product review grid",
          agent_completions: [
            node("Technical Analyst", "You judge specifications and performance."),
            node("Value Analyst", "You judge price and value for money."),
          ],
          tasks: ["Review the best-selling phones", "Review the best-selling laptops"],
          max_loops: 1,
        },
      },
    },
  },
  responses: {
    200: {
      description: "The grid succeeded: per task, every agent's answer under its name",
      body: batchedGridWorkflowResponseSchema,
      examples: {
        reviews: {
          value: {
            job_id: JOB_ID,
            name: "Product review grid",
            description: "Every agent on every task",
            status: "success",
            outputs: [
              { "Technical Analyst": "Phones: …", "Value Analyst": "Phones: …" },
              { "Technical Analyst": "Laptops: …", "Value Analyst": "Laptops: …" },
            ],
            usage,
            timestamp: EXAMPLE_TIMESTAMP,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError(
      `The grid cannot run (\`INVALID_WORKFLOW\`: duplicate agent names, too many cells, more images than tasks), an unknown model, ${MARKETPLACE_400}, ${EGRESS_400}`,
    ),
    ...runErrorResponses,
    ...publishingResponses,
  },
};
