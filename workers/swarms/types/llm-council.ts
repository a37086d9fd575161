import { createHash } from "node:crypto";
import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import { internalAgent, internalAgentModel, jobTurn, roleAgent } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import { swarmSystemPrompt } from "../swarm-prompt";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { answersByAgent } from "../turn-inputs";

/** The internal chairman's name: its turn appears under this role (docs/swarm-types.md, "Output shapes"). */
const CHAIRMAN = "Chairman";
/** The role of the turn that carries the service's tally. */
const TALLY = "Tally";
const TOOL_NAME = "rank_answers";

/** One member's evaluation: a critique and the anonymised answers' letters, best first. */
export interface RankingDecision {
  evaluation: string;
  ranking: string[];
}

/** The Borda count of the rankings, computed by the service. */
export interface CouncilTally {
  method: "borda";
  /** Which member's answer each letter stood for. */
  letters: Record<string, string>;
  /** Borda points per member (K answers: first place K−1 … last 0), in member order. */
  points: Record<string, number>;
  /** Members by points, most first; ties in member order. */
  order: string[];
}

/** Letters for `n` answers: A, B, C, … */
function answerLetters(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
}

/**
 * The per-run anonymisation: `order[k]` is the index of the member whose answer gets letter k.
 * A Fisher–Yates shuffle seeded by a hash of the run's opening and the member names, so it is the
 * same when a crashed run is replayed and differs from task to task.
 */
export function councilOrder(opening: string, members: string[]): number[] {
  const digest = createHash("sha256")
    .update(JSON.stringify([opening, members]))
    .digest();
  let state = digest.readUInt32BE(0);
  // mulberry32
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = members.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The ranking tool: `ranking` lists every letter exactly once (an enum of the letters, K items, unique). */
function rankingTool(letters: string[]): DecisionTool {
  return {
    name: TOOL_NAME,
    description:
      "Evaluate the anonymised answers and rank all of them from best to worst. Every letter appears exactly once.",
    parameters: {
      type: "object",
      properties: {
        evaluation: { type: "string", description: "A short critique of each answer: what it gets right and wrong" },
        ranking: {
          type: "array",
          description: "The answers' letters from best to worst, each letter exactly once",
          items: { type: "string", enum: letters },
          minItems: letters.length,
          maxItems: letters.length,
          uniqueItems: true,
        },
      },
      required: ["evaluation", "ranking"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with a ranking for these letters, or null (the `decide` validator). */
export function rankingProblem(letters: string[], value: unknown): string | null {
  if (!isJsonObject(value)) return "the arguments must be an object with 'evaluation' and 'ranking'";
  const { evaluation, ranking } = value;
  const problems: string[] = [];
  if (!Array.isArray(ranking)) problems.push(`'ranking' must list the letters ${letters.join(", ")}, best first`);
  else {
    const unknown = ranking.filter((l) => typeof l !== "string" || !letters.includes(l));
    if (unknown.length)
      problems.push(
        `'ranking' has unknown letters ${unknown.map(String).join(", ")} (the answers are ${letters.join(", ")})`,
      );
    const repeated = letters.filter((l) => ranking.filter((r) => r === l).length > 1);
    if (repeated.length) problems.push(`'ranking' repeats ${repeated.join(", ")}`);
    const missing = letters.filter((l) => !ranking.includes(l));
    if (missing.length) problems.push(`'ranking' leaves out ${missing.join(", ")}`);
  }
  if (typeof evaluation !== "string") problems.push("'evaluation' must be a string");
  return problems.length ? problems.join("; ") : null;
}

/**
 * Borda count: with K answers the first place of a ranking earns K−1 points … the last 0. `letters`
 * maps each letter to its member; the order is by points, ties in member order.
 */
export function bordaTally(members: string[], letters: Record<string, string>, rankings: string[][]): CouncilTally {
  const k = members.length;
  const points: Record<string, number> = Object.fromEntries(members.map((m) => [m, 0]));
  for (const ranking of rankings) ranking.forEach((letter, place) => (points[letters[letter]] += k - 1 - place));
  const order = [...members].sort((a, b) => points[b] - points[a] || members.indexOf(a) - members.indexOf(b));
  return { method: "borda", letters, points, order };
}

/** The tally turn's readable text. */
export function renderCouncilTally(tally: CouncilTally): string {
  const byMember = Object.fromEntries(Object.entries(tally.letters).map(([letter, member]) => [member, letter]));
  const k = tally.order.length;
  const lines = tally.order.map(
    (member, i) =>
      `${i + 1}. ${member} (answer ${byMember[member]}): ${tally.points[member]} point${tally.points[member] === 1 ? "" : "s"}`,
  );
  return [
    `Borda count of the rankings (first place ${k - 1} point${k - 1 === 1 ? "" : "s"} … last place 0):`,
    ...lines,
  ].join("\n");
}

/** An evaluation turn's readable text: the ranking with whose answer each letter was, and the critique. */
function renderRanking(decision: RankingDecision, letters: Record<string, string>): string {
  const ranking = decision.ranking.map((letter, i) => `${i + 1}. ${letter} (${letters[letter]})`).join(", ");
  return `Ranking (best first): ${ranking}\n\nEvaluation: ${decision.evaluation.trim()}`;
}

/**
 * LLMCouncil: the members (the request's agents, except one with role `chairman`) answer the task in
 * parallel; each member then ranks all the answers, anonymised as letters in a per-run shuffled
 * order, through a structured decision; the service tallies the rankings by Borda count; a chairman
 * (the agent with role `chairman`, else internal) writes the final answer from the answers,
 * evaluations and tally. Calls 2N+1, depth 3. Output: the members' answers, their evaluations
 * (role = member), the `Tally` turn (text plus `tally`), the chairman's turn.
 */
export const llmCouncil: SwarmTypeRunner<"LLMCouncil"> = {
  name: "LLMCouncil",
  async run(swarm) {
    const chairAgent = roleAgent(swarm, "chairman");
    const members: AgentSpec[] = swarm.agents.filter((agent) => agent !== chairAgent);
    const names = members.map(agentName);
    const chairName = chairAgent ? agentName(chairAgent) : CHAIRMAN;

    const answers = await swarm.parallel(members, (agent, i) =>
      swarm.turn(agent, swarm.opening, {
        lane: `m${i}`,
        place: `a member of the council (${names.join(", ")}) answering in parallel; ${chairName} writes the final answer`,
      }),
    );
    answers.forEach((content, i) => swarm.conversation.add({ role: names[i], content }));

    const order = councilOrder(swarm.opening, names);
    const letterList = answerLetters(members.length);
    const letters: Record<string, string> = Object.fromEntries(
      letterList.map((letter, k) => [letter, names[order[k]]]),
    );
    const tool = rankingTool(letterList);
    // Names never reach the evaluators: the answers by letter, and a team note that names no one.
    const evaluationInput = [
      `Task:\n${swarm.opening}`,
      "Anonymised answers:",
      ...letterList.map((letter, k) => `Answer ${letter}:\n${contentText(answers[order[k]])}`),
      `Evaluate every answer and rank them all, best first, with ${tool.name}.`,
    ].join("\n\n");
    const decisions = await swarm.parallel(members, (agent, i) =>
      decide<RankingDecision>(
        swarm,
        {
          name: names[i],
          model: agent.model_name,
          systemPrompt: swarmSystemPrompt(
            agent,
            swarm.request,
            swarm.swarmType,
            [names[i]],
            "evaluating and ranking the council's anonymised answers",
          ),
          spec: agent, // a member ranks with its own settings
        },
        evaluationInput,
        tool,
        (value) => rankingProblem(letterList, value),
        `e${i}`,
      ),
    );
    const evaluations = decisions.map((decision) => renderRanking(decision, letters));
    decisions.forEach((decision, i) =>
      swarm.conversation.add({
        role: names[i],
        content: evaluations[i],
        ranking: decision.ranking.map((letter) => letters[letter]),
      }),
    );

    const tally = bordaTally(
      names,
      letters,
      decisions.map((d) => d.ranking),
    );
    const tallyText = renderCouncilTally(tally);
    swarm.conversation.add({ role: TALLY, content: tallyText, tally });

    const chairPrompt =
      "You chair an LLM council. Write the single best final answer to the task, drawing on the members' answers, their evaluations of each other and the tally; explain briefly which answers you relied on and why.";
    const chairInput = [
      `Task:\n${swarm.opening}`,
      "Answers of the members:",
      ...answersByAgent(names, answers),
      "Evaluations by the members:",
      ...evaluations.map((text, i) => `${names[i]}: ${text}`),
      `Tally:\n${tallyText}`,
      "Write the final answer.",
    ].join("\n\n");
    const place = `the chairman of the council (${names.join(", ")}), writing the final answer`;
    let final: unknown;
    // `chairman_model`, when set, is the chairman's model, whoever holds the job.
    const chairModel = internalAgentModel(swarm, "chairman", "chairman_model");
    if (chairAgent) {
      const acting = { ...chairAgent, model_name: chairModel };
      final = await swarm.turn(acting, chairInput, { lane: "chairman", place });
    } else {
      const chair = internalAgent(swarm, CHAIRMAN, chairModel, chairPrompt, place);
      final = await swarm.turn(chair.spec, chairInput, { lane: "chairman", systemPrompt: chair.systemPrompt });
    }
    swarm.conversation.add(jobTurn(CHAIRMAN, chairName, final));
    return swarm.conversation.turns;
  },
};
