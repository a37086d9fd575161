import Joi from "joi";
import { agentSpecSchema } from "./agent-spec.schema";
import { budgetSchema } from "./budget.schema";
import { imageSchema } from "./image.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** Most nodes a graph may have: each costs at least one LLM call per loop. */
const GRAPH_MAX_NODES = 100;
/** Most edges a graph may list (a DAG of the most nodes needs far fewer to connect them all). */
const GRAPH_MAX_EDGES = 1_000;

const nodeName = nonBlankString().max(200);

/**
 * An edge as the hosted API takes it: an object with `source`, `target` and optional `metadata`.
 * List shorthands (`["A", "B"]`) are refused (422), as the hosted docs say they are.
 */
const edgeSchema = Joi.object({
  source: nodeName.required().description("The agent_name whose output the target reads"),
  target: nodeName.required().description("The agent_name that runs after the source"),
  metadata: Joi.object()
    .unknown(true)
    .allow(null)
    .description("The client's own notes on the edge: stored and shown back, never read by the service"),
})
  .unknown(true)
  .id("EdgeSpec");

const pointList = Joi.array().items(nodeName).max(GRAPH_MAX_NODES).allow(null);

/** `POST /v1/graph-workflow/completions` (the hosted API's GraphWorkflowInput). */
export const graphWorkflowRequestSchema = Joi.object({
  ...webhookUrlField,
  name: Joi.string().max(100).allow(null, ""),
  description: Joi.string().max(10_000).allow(null, ""),
  agents: Joi.array()
    .items(agentSpecSchema)
    .min(1)
    .max(GRAPH_MAX_NODES)
    .required()
    .description("The nodes of the graph, each under its (unique) `agent_name`"),
  edges: Joi.array()
    .items(edgeSchema)
    .max(GRAPH_MAX_EDGES)
    .allow(null)
    .empty(null)
    .default([])
    .description(
      "`{source, target, metadata?}`: the target runs once all its sources have finished, reading their outputs",
    ),
  entry_points: pointList.description("Nodes the task enters; default: the nodes without sources"),
  end_points: pointList.description(
    "Nodes whose outputs start the next loop (`max_loops` > 1); default: the nodes without targets",
  ),
  max_loops: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .allow(null)
    .empty(null)
    .default(1)
    .description("Runs of the whole graph; each later run's entry points read the last run's end-point outputs"),
  task: nonBlankString().max(1_000_000).required(),
  img: imageSchema.allow(null, "").description("An image every node receives with its input"),
  auto_compile: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(true)
    .description("Accepted for the hosted API's clients: the graph is always checked before anything runs"),
  verbose: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(false)
    .description("Accepted for the hosted API's clients: it changes nothing"),
  budget: budgetSchema,
})
  .unknown(true)
  .id("GraphWorkflowRequest");
