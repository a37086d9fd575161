import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { config } from "../../../shared/config";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { HEAVY_SWARM_TEAMS, type HeavySwarmTeam } from "./heavy-swarm-variants";

/** The internal agents' names: their turns appear under these roles (docs/swarm-types.md, "Output shapes"). */
const QUESTION_GENERATOR = "Question Generator";
const SYNTHESIS = "Synthesis";
const TOOL_NAME = "assign_questions";

const GENERATOR_PROMPT =
  "You plan deep research. Split the task into focused questions, one per worker, so that together the answers cover the task completely without overlapping; fit each question to the worker's speciality.";
const SYNTHESIS_PROMPT =
  "You write the final report of a research team. Combine the workers' answers into one complete, well-structured report that answers the task: reconcile disagreements, keep what is verified, and note what remains uncertain.";

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

/** The built-in team of the request's `heavy_swarm_variant` (used when it has no agents). */
function teamOf(swarm: SwarmRun): HeavySwarmTeam {
  return HEAVY_SWARM_TEAMS[swarm.request.heavy_swarm_variant ?? "default"] ?? HEAVY_SWARM_TEAMS.default;
}

/** A worker of a round: the spec it runs on, its name, and (built-ins) its complete system prompt. */
interface Worker {
  spec: AgentSpec;
  name: string;
  systemPrompt?: string;
}

/** Who writes the report: the variant's synthesis agent without request agents (`Synthesis`, `Captain Swarm`), else `Synthesis`. */
function synthesisNameOf(swarm: SwarmRun): string {
  return swarm.agents.length ? SYNTHESIS : teamOf(swarm).synthesis;
}

/** The workers: the request's agents, else the variant's built-ins on `heavy_swarm_worker_model_name`; each runs `loops` loops. */
function workersOf(swarm: SwarmRun, loops: number): Worker[] {
  if (swarm.agents.length) {
    // An agent's own max_loops is kept when it asks for more loops than the swarm does.
    return swarm.agents.map((agent) => ({
      spec: { ...agent, max_loops: Math.max(loops, agent.max_loops ?? 1) },
      name: agentName(agent),
    }));
  }
  const model = swarm.request.heavy_swarm_worker_model_name?.trim() || config.llm.defaultWorkerModel;
  const builtIns = teamOf(swarm).workers;
  const names = builtIns.map((w) => w.name);
  return builtIns.map(({ name, prompt }) => {
    const place = workerPlace(names, synthesisNameOf(swarm));
    const { spec, systemPrompt } = internalAgent(swarm, name, model, prompt, place);
    return { spec: { ...spec, max_loops: loops }, name, systemPrompt };
  });
}

/** The question generator's model: `heavy_swarm_question_agent_model_name`, else the agents' (the API fills it in without agents). */
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

function workerPlace(names: string[], synthesis = SYNTHESIS): string {
  return `one of the workers (${names.join(", ")}) each answering its own question in parallel; ${synthesis} writes the final report from your answers`;
}

/** A round's task: the opening, and from round 2 the previous round's report to refine (as the reference framework's loops). */
function roundTask(opening: string, previousReport: string | null): string {
  if (previousReport === null) return opening;
  return [
    opening,
    `Report of the previous round:\n${previousReport}`,
    "Continue from this report: refine, correct and deepen it, and complete what it leaves open.",
  ].join("\n\n");
}

/**
 * HeavySwarm, `heavy_swarm_max_loops` rounds: an internal Question Generator (model
 * `heavy_swarm_question_agent_model_name`, else the agents') writes one focused question per worker
 * through a structured decision; the workers (the request's agents, else the built-in team of
 * `heavy_swarm_variant` on `heavy_swarm_worker_model_name`) answer in parallel, each with
 * `heavy_swarm_loops_per_agent` loops (every extra loop reviews and improves its previous answer,
 * the agent `max_loops` mechanism); an internal synthesis agent writes the report from the task,
 * the questions and the answers. A later round works on the task and the previous round's report.
 * Calls R·(1+W·loops+1), depth R·(2+loops). Output per round: the `Question Generator` turn
 * (content: the questions keyed by worker), the workers' final answers in worker order, the
 * `Synthesis` turn.
 */
export const heavySwarm: SwarmTypeRunner<"HeavySwarm"> = {
  name: "HeavySwarm",
  async run(swarm) {
    const loops = Math.max(1, swarm.request.heavy_swarm_loops_per_agent ?? 1);
    const rounds = Math.max(1, swarm.request.heavy_swarm_max_loops ?? 1);
    const workers = workersOf(swarm, loops);
    let report: string | null = null;
    for (let round = 0; round < rounds; round++) {
      // Round 1 keeps the lanes it always had, so runs stored before rounds existed still replay.
      const lane = round === 0 ? "" : `r${round}/`;
      report = contentText(await heavyRound(swarm, workers, roundTask(swarm.opening, report), lane));
    }
    return swarm.conversation.turns;
  },
};

/** One round: questions, the workers' answers in parallel, the report; its turns are added to the conversation. */
async function heavyRound(swarm: SwarmRun, workers: Worker[], task: string, lane: string): Promise<unknown> {
  const names = workers.map((w) => w.name);
  const synthesisName = synthesisNameOf(swarm);
  const generator = internalAgent(
    swarm,
    QUESTION_GENERATOR,
    questionModel(swarm),
    GENERATOR_PROMPT,
    `writing one question for each worker (${names.join(", ")})`,
  );
  const tool = questionTool(names);
  const team = swarm.agents.length
    ? teamList(swarm.agents)
    : teamOf(swarm)
        .workers.map((w) => `- ${w.name}: ${w.prompt}`)
        .join("\n");
  const generatorInput = [
    `Task:\n${task}`,
    `Workers:\n${team}`,
    `Give every worker one focused question with ${tool.name}.`,
  ].join("\n\n");
  const decision = await decide<QuestionDecision>(
    swarm,
    generator,
    generatorInput,
    tool,
    (value) => questionProblem(names, value),
    `${lane}questions`,
  );
  // Rebuilt in worker order, so the turn's object does not depend on the model's key order.
  const questions: Record<string, string> = Object.fromEntries(
    names.map((name) => [name, decision.questions[name].trim()]),
  );
  swarm.conversation.add(jobTurn(QUESTION_GENERATOR, generator.name, questions));

  const place = workerPlace(names, synthesisName);
  const answers = await swarm.parallel(workers, (worker, i) =>
    swarm.turn(worker.spec, workerInput(task, questions[worker.name]), {
      lane: `${lane}w${i}`,
      place,
      systemPrompt: worker.systemPrompt,
    }),
  );
  answers.forEach((content, i) => swarm.conversation.add({ role: names[i], content }));

  const synthesis = internalAgent(
    swarm,
    synthesisName,
    synthesisModel(swarm),
    SYNTHESIS_PROMPT,
    `writing the final report from the answers of ${names.join(", ")}`,
  );
  const synthesisInput = [
    `Task:\n${task}`,
    "Questions and answers of the workers:",
    ...names.map((name, i) => `${name}\nQuestion: ${questions[name]}\nAnswer: ${contentText(answers[i])}`),
    "Write the final report.",
  ].join("\n\n");
  const report = await swarm.turn(synthesis.spec, synthesisInput, {
    lane: `${lane}synthesis`,
    systemPrompt: synthesis.systemPrompt,
    label: SYNTHESIS,
  });
  swarm.conversation.add(jobTurn(SYNTHESIS, synthesis.name, report));
  return report;
}
