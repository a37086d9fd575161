import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { config } from "../../../shared/config";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import { internalAgent, internalAgentModel } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";

/** The internal agents' names: their turns appear under these roles (SWARM-TYPES.md "Output shapes"). */
const QUESTION_GENERATOR = "Question Generator";
const SYNTHESIS = "Synthesis";
const TOOL_NAME = "assign_questions";

/** The built-in workers used when the request has no agents. */
const BUILT_IN_WORKERS: readonly { name: string; prompt: string }[] = [
  {
    name: "Research",
    prompt:
      "You are a research specialist. Gather the facts, evidence, data and sources that bear on your question, and say how reliable each is.",
  },
  {
    name: "Analysis",
    prompt:
      "You are an analysis specialist. Break your question down, find the patterns, causes and trade-offs, and draw reasoned conclusions.",
  },
  {
    name: "Alternatives",
    prompt:
      "You are an alternatives specialist. Explore other approaches and options for your question, and compare them with their pros and cons.",
  },
  {
    name: "Verification",
    prompt:
      "You are a verification specialist. Check the claims, assumptions and feasibility your question raises, and point out risks and errors.",
  },
];

/** The question generator's decision: one question per worker, keyed by the worker's name. */
export interface QuestionDecision {
  questions: Record<string, string>;
}

/** The question tool: `questions` has exactly one required string per worker name, nothing else. */
function questionTool(workers: string[]): DecisionTool {
  return {
    name: TOOL_NAME,
    description:
      "Give each worker one focused question that, answered well, covers its part of the task. Every worker gets exactly one question.",
    parameters: {
      type: "object",
      properties: {
        questions: {
          type: "object",
          description: "One focused question per worker, keyed by the worker's exact name",
          properties: Object.fromEntries(
            workers.map((name) => [name, { type: "string", description: `The question ${name} answers` }]),
          ),
          required: workers,
          additionalProperties: false,
        },
      },
      required: ["questions"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with a question decision for these workers, or null (the `decide` validator). */
export function questionProblem(workers: string[], value: unknown): string | null {
  if (!isJsonObject(value) || !isJsonObject(value.questions))
    return "'questions' must be an object with one question per worker";
  const questions = value.questions;
  const problems: string[] = [];
  const missing = workers.filter((name) => typeof questions[name] !== "string" || !(questions[name] as string).trim());
  if (missing.length) problems.push(`no question for ${missing.join(", ")}`);
  const unknown = Object.keys(questions).filter((key) => !workers.includes(key));
  if (unknown.length)
    problems.push(`questions for unknown workers ${unknown.join(", ")} (the workers are ${workers.join(", ")})`);
  return problems.length ? problems.join("; ") : null;
}

/** A worker's input: the task, then its own question. */
export function workerInput(task: string, question: string): string {
  return `Task:\n${task}\n\nYour question:\n${question}\n\nAnswer your question thoroughly, in the light of the task.`;
}

/** The workers: the request's agents, else the built-ins on `heavy_swarm_worker_model_name`; each runs `loops` loops. */
function workersOf(swarm: SwarmRun, loops: number): { spec: AgentSpec; name: string; systemPrompt?: string }[] {
  if (swarm.agents.length) {
    // An agent's own max_loops is kept when it asks for more loops than the swarm does.
    return swarm.agents.map((agent) => ({
      spec: { ...agent, max_loops: Math.max(loops, agent.max_loops ?? 1) },
      name: agentName(agent),
    }));
  }
  const model = swarm.request.heavy_swarm_worker_model_name?.trim() || config.llm.defaultWorkerModel;
  const names = BUILT_IN_WORKERS.map((w) => w.name);
  return BUILT_IN_WORKERS.map(({ name, prompt }) => {
    const { spec, systemPrompt } = internalAgent(swarm, name, model, prompt, workerPlace(names));
    return { spec: { ...spec, max_loops: loops }, name, systemPrompt };
  });
}

/** The question generator's model: `heavy_swarm_question_agent_model_name` (the API always fills it in). */
function questionModel(swarm: SwarmRun): string {
  return swarm.agents.length || swarm.request.heavy_swarm_question_agent_model_name?.trim()
    ? internalAgentModel(swarm, "question generator", "heavy_swarm_question_agent_model_name")
    : config.llm.defaultModel;
}

/** Synthesis runs on the worker model field (as the reference framework's synthesis agent does). */
function synthesisModel(swarm: SwarmRun): string {
  return (
    swarm.request.heavy_swarm_worker_model_name?.trim() ||
    (swarm.agents.length ? internalAgentModel(swarm, "synthesis") : config.llm.defaultWorkerModel)
  );
}

function workerPlace(names: string[]): string {
  return `one of the workers (${names.join(", ")}) each answering its own question in parallel; ${SYNTHESIS} writes the final report from your answers`;
}

/**
 * HeavySwarm: an internal Question Generator (model `heavy_swarm_question_agent_model_name`) writes
 * one focused question per worker through a structured decision; the workers (the request's agents,
 * else Research, Analysis, Alternatives and Verification on `heavy_swarm_worker_model_name`) answer
 * in parallel, each with `heavy_swarm_loops_per_agent` loops (every extra loop reviews and improves
 * its previous answer, the agent `max_loops` mechanism); an internal Synthesis agent writes the
 * final report from the task, the questions and the answers. Calls 1+W·loops+1, depth 2+loops.
 * Output: the `Question Generator` turn (content: the questions keyed by worker), the workers'
 * final answers in worker order, the `Synthesis` turn.
 */
export const heavySwarm: SwarmTypeRunner<"HeavySwarm"> = {
  name: "HeavySwarm",
  async run(swarm) {
    const loops = Math.max(1, swarm.request.heavy_swarm_loops_per_agent ?? 1);
    const workers = workersOf(swarm, loops);
    const names = workers.map((w) => w.name);

    const generatorPrompt =
      "You plan deep research. Split the task into focused questions, one per worker, so that together the answers cover the task completely without overlapping; fit each question to the worker's speciality.";
    const generator = internalAgent(
      swarm,
      QUESTION_GENERATOR,
      questionModel(swarm),
      generatorPrompt,
      `writing one question for each worker (${names.join(", ")})`,
    );
    const tool = questionTool(names);
    const team = swarm.agents.length
      ? teamList(swarm.agents)
      : BUILT_IN_WORKERS.map((w) => `- ${w.name}: ${w.prompt}`).join("\n");
    const generatorInput = [
      `Task:\n${swarm.opening}`,
      `Workers:\n${team}`,
      `Give every worker one focused question with ${tool.name}.`,
    ].join("\n\n");
    const decision = await decide<QuestionDecision>(
      swarm,
      generator,
      generatorInput,
      tool,
      (value) => questionProblem(names, value),
      "questions",
    );
    // Rebuilt in worker order, so the turn's object does not depend on the model's key order.
    const questions: Record<string, string> = Object.fromEntries(
      names.map((name) => [name, decision.questions[name].trim()]),
    );
    swarm.conversation.add({ role: QUESTION_GENERATOR, content: questions });

    const place = workerPlace(names);
    const answers = await swarm.parallel(workers, (worker, i) =>
      swarm.turn(worker.spec, workerInput(swarm.opening, questions[worker.name]), {
        lane: `w${i}`,
        place,
        systemPrompt: worker.systemPrompt,
      }),
    );
    answers.forEach((content, i) => swarm.conversation.add({ role: names[i], content }));

    const synthesisPrompt =
      "You write the final report of a research team. Combine the workers' answers into one complete, well-structured report that answers the task: reconcile disagreements, keep what is verified, and note what remains uncertain.";
    const synthesis = internalAgent(
      swarm,
      SYNTHESIS,
      synthesisModel(swarm),
      synthesisPrompt,
      `writing the final report from the answers of ${names.join(", ")}`,
    );
    const synthesisInput = [
      `Task:\n${swarm.opening}`,
      "Questions and answers of the workers:",
      ...names.map((name, i) => `${name}\nQuestion: ${questions[name]}\nAnswer: ${contentText(answers[i])}`),
      "Write the final report.",
    ].join("\n\n");
    const report = await swarm.turn(synthesis.spec, synthesisInput, {
      lane: "synthesis",
      systemPrompt: synthesis.systemPrompt,
    });
    swarm.conversation.add({ role: SYNTHESIS, content: report });
    return swarm.conversation.turns;
  },
};
