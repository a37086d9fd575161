import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { answersByAgent } from "../turn-inputs";

/** The internal agent's name: its turns appear under this role (docs/swarm-types.md, "Output shapes"). */
const CONSENSUS = "Consensus";
const TOOL_NAME = "report_votes";

/** One agent's ballot as the consensus agent reads it. */
interface Ballot {
  answer: string;
  same_as: string;
}

/** The consensus agent's decision: a ballot per agent (keyed by name), and why. */
export interface VoteDecision {
  votes: Record<string, Ballot>;
  rationale: string;
}

/** Agents whose answers are equivalent, with the answer and how many votes it got. */
interface VoteGroup {
  answer: string;
  agents: string[];
  votes: number;
}

/** The tally the Consensus turn carries; counts are the service's, never the model's. */
export interface Tally {
  votes: VoteGroup[];
  majority: string;
  rationale: string;
}

/**
 * The vote-reporting tool. Ballots are keyed by agent name (all required, no others), so "every
 * agent exactly once" is a property of the schema rather than something a model can get wrong;
 * grouping is a `same_as` link whose value is an enum of the real agent names.
 */
function voteTool(names: string[]): DecisionTool {
  const ballot = (name: string) => ({
    type: "object",
    properties: {
      answer: { type: "string", description: `${name}'s answer, stated in a few words` },
      same_as: {
        type: "string",
        enum: names,
        description: `The first agent in the list whose answer is equivalent to ${name}'s (${name} itself when no earlier agent's answer is)`,
      },
    },
    required: ["answer", "same_as"],
    additionalProperties: false,
  });
  return {
    name: TOOL_NAME,
    description:
      "Report how the agents voted. Answers that reach the same conclusion count as the same vote, however they are worded. " +
      "Give every agent's answer and link it with same_as to an equivalent answer; linked agents form one group. The service counts the votes.",
    parameters: {
      type: "object",
      properties: {
        votes: {
          type: "object",
          description: "One ballot per agent, keyed by the agent's exact name",
          properties: Object.fromEntries(names.map((name) => [name, ballot(name)])),
          required: names,
          additionalProperties: false,
        },
        rationale: { type: "string", description: "Why the answers were grouped this way" },
      },
      required: ["votes", "rationale"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with a vote decision for these agents, or null (the `decide` validator). */
export function voteProblem(names: string[], value: unknown): string | null {
  if (!isJsonObject(value) || !isJsonObject(value.votes)) return "'votes' must be an object with one ballot per agent";
  const votes = value.votes;
  const problems: string[] = [];
  const missing = names.filter((name) => !Object.hasOwn(votes, name));
  if (missing.length) problems.push(`no ballot for ${missing.join(", ")}`);
  const unknown = Object.keys(votes).filter((key) => !names.includes(key));
  if (unknown.length)
    problems.push(`ballots for unknown agents ${unknown.join(", ")} (the agents are ${names.join(", ")})`);
  for (const name of names.filter((n) => Object.hasOwn(votes, n))) {
    const ballot = votes[name];
    if (!isJsonObject(ballot) || typeof ballot.answer !== "string" || !ballot.answer.trim())
      problems.push(`${name}'s ballot needs a non-empty 'answer'`);
    else if (typeof ballot.same_as !== "string" || !names.includes(ballot.same_as))
      problems.push(`${name}'s 'same_as' must be one of ${names.join(", ")}`);
  }
  if (typeof value.rationale !== "string") problems.push("'rationale' must be a string");
  return problems.length ? problems.join("; ") : null;
}

/**
 * Counts the votes: agents linked by `same_as` (in either direction, transitively) are one group,
 * so every agent is in exactly one group whatever links the model chose. A group's answer is its
 * first member's (request order). Groups are ordered by votes, ties by their first member; the
 * first group is the majority.
 */
export function tallyVotes(names: string[], decision: VoteDecision): Tally {
  const parent = names.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  names.forEach((name, i) => {
    const a = root(i);
    const b = root(names.indexOf(decision.votes[name].same_as));
    // The lower index becomes the root, so a group is keyed by its first member.
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  });
  const groups = new Map<number, string[]>();
  names.forEach((name, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), name]));
  const votes = [...groups.entries()]
    .sort(([firstA, a], [firstB, b]) => b.length - a.length || firstA - firstB)
    .map(([, agents]) => ({ answer: decision.votes[agents[0]].answer.trim(), agents, votes: agents.length }));
  return { votes, majority: votes[0].answer, rationale: decision.rationale.trim() };
}

/** The Consensus turn's readable text. */
export function renderTally(tally: Tally): string {
  const total = tally.votes.reduce((sum, group) => sum + group.votes, 0);
  const top = tally.votes[0];
  const tied = tally.votes.filter((group) => group.votes === top.votes).length;
  const headline =
    tied > 1
      ? `Tie (${top.votes} of ${total} votes each for ${tied} answers; the first in agent order is taken): ${top.answer}`
      : `Majority (${top.votes} of ${total} vote${total === 1 ? "" : "s"}): ${top.answer}`;
  const lines = tally.votes.map((group) => `- ${group.answer} (${group.votes}): ${group.agents.join(", ")}`);
  return [headline, "Votes:", ...lines, `Rationale: ${tally.rationale}`].join("\n");
}

/**
 * MajorityVoting: all agents answer in parallel; an internal Consensus agent groups equivalent
 * answers through a structured decision, and the service counts the groups. With `max_loops` > 1
 * agents answer again having seen the last round's answers and tally. Calls (N+1)·L, depth 2·L.
 */
export const majorityVoting: SwarmTypeRunner<"MajorityVoting"> = {
  name: "MajorityVoting",
  async run(swarm) {
    const names = swarm.names;
    const consensus = internalAgent(
      swarm,
      CONSENSUS,
      internalAgentModel(swarm, "consensus"),
      "You count the votes of agents who answered the same task independently. Judge which answers reach the same conclusion, however they are worded, and report every agent's vote.",
      `counting the votes of ${names.join(", ")}`,
    );
    const tool = voteTool(names);
    let previous: string | null = null;
    for (let loop = 0; loop < swarm.loops; loop++) {
      const input: string =
        previous === null ? swarm.opening : `${previous}\n\nConsidering these, answer the task again.`;
      const answers = await swarm.parallel(swarm.agents, (agent, i) =>
        swarm.turn(agent, input, { lane: `l${loop}/a${i}` }),
      );
      answers.forEach((content, i) => swarm.conversation.add({ role: names[i], content }));

      const byAgent = answersByAgent(names, answers);
      const ballotInput = [
        `Task:\n${swarm.opening}`,
        "Answers by agent:",
        ...byAgent,
        `Report every agent's vote with ${tool.name}.`,
      ].join("\n\n");
      const decision = await decide<VoteDecision>(
        swarm,
        consensus,
        ballotInput,
        tool,
        (value) => voteProblem(names, value),
        `l${loop}/consensus`,
      );
      const tally = tallyVotes(names, decision);
      const text = renderTally(tally);
      swarm.conversation.add(jobTurn(CONSENSUS, consensus.name, text, { tally }));
      // The next round starts from the task, this round's answers and the tally.
      previous = [
        swarm.opening,
        "Answers of the previous round:",
        ...byAgent,
        `Tally of the previous round:\n${text}`,
      ].join("\n\n");
    }
    return swarm.conversation.turns;
  },
};
