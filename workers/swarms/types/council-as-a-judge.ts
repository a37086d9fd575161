import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";

/** The internal agent that merges the reports (docs/swarm-types.md, "Output shapes"). */
const CHAIR = "Chair";

/** The built-in judges used when the request has no agents: name and the dimension it judges. */
export const BUILT_IN_JUDGES: readonly { name: string; dimension: string }[] = [
  {
    name: "Accuracy Judge",
    dimension: "accuracy: factual correctness, precision of claims, absence of errors and unsupported statements",
  },
  {
    name: "Helpfulness Judge",
    dimension: "helpfulness: how well it serves the reader's real need, practical value, completeness",
  },
  { name: "Harmlessness Judge", dimension: "harmlessness: safety, ethics, bias, and content that could cause harm" },
  { name: "Coherence Judge", dimension: "coherence: logical structure, flow, consistency between its parts" },
  {
    name: "Conciseness Judge",
    dimension: "conciseness: economy of words, no redundancy or padding, right level of detail",
  },
  {
    name: "Instruction Adherence Judge",
    dimension: "instruction adherence: how closely it follows the instructions, constraints and format it was given",
  },
];

/** One judge: the agent that runs, what its turn is recorded under, its dimension, and how it is prompted. */
interface Judge {
  spec: AgentSpec;
  name: string;
  dimension: string;
  /** A complete system prompt (built-in judges); request agents get the usual swarm prompt. */
  systemPrompt?: string;
}

/** A request agent's dimension: its name, then its description (its prompt is its system prompt). */
function agentDimension(agent: AgentSpec): string {
  const name = agentName(agent);
  const description = agent.description?.trim();
  return description ? `${name} — ${description}` : name;
}

function judgesOf(swarm: SwarmRun): Judge[] {
  if (swarm.agents.length) {
    return swarm.agents.map((spec) => ({ spec, name: agentName(spec), dimension: agentDimension(spec) }));
  }
  const model = internalAgentModel(swarm, "judge");
  const all = BUILT_IN_JUDGES.map((j) => j.name);
  return BUILT_IN_JUDGES.map(({ name, dimension }) => {
    const prompt = `You are an expert evaluator. You judge material along one dimension only: ${dimension}. Be specific: quote or point to the parts that matter, and end with a clear verdict on this dimension.`;
    const place = `one of the council's judges (${all.join(", ")}) judging in parallel; ${CHAIR} merges your reports`;
    const { spec, systemPrompt } = internalAgent(swarm, name, model, prompt, place);
    return { spec, name, dimension, systemPrompt };
  });
}

/** A judge's input: the material to judge and the dimension to judge it along. */
function judgeInput(material: string, dimension: string): string {
  return [
    `Material to judge:\n${material}`,
    `Your dimension: ${dimension}`,
    "Judge the material along your dimension only. Write a focused report: its strengths and weaknesses on this dimension, with specifics, and your verdict.",
  ].join("\n\n");
}

/**
 * CouncilAsAJudge: judges report in parallel, each along its own dimension, then an internal Chair
 * merges every report into one judgement. The judges are the request's agents (each judging the
 * dimension its name, description or prompt gives), or six built-in dimension judges when the
 * request has none. Swarm `max_loops` does not repeat the council. Calls J+1, depth 2; output is
 * the judges' reports in judge order, then the `Chair` turn.
 */
export const councilAsAJudge: SwarmTypeRunner<"CouncilAsAJudge"> = {
  name: "CouncilAsAJudge",
  async run(swarm) {
    const judges = judgesOf(swarm);
    const judgeNames = judges.map((j) => j.name);
    const place = `one of the council's judges (${judgeNames.join(", ")}) judging in parallel along your own dimension; ${CHAIR} merges your reports`;
    const reports = await swarm.parallel(judges, (judge, i) =>
      swarm.turn(judge.spec, judgeInput(swarm.opening, judge.dimension), {
        lane: `j${i}`,
        place,
        systemPrompt: judge.systemPrompt,
      }),
    );
    reports.forEach((content, i) => swarm.conversation.add({ role: judgeNames[i], content }));

    const chairPrompt =
      "You chair a council of judges. Merge their reports into one judgement: the overall verdict, the main strengths and weaknesses by dimension, where the judges agree or disagree, and concrete recommendations for improvement.";
    const chairPlace = `chairing the council of ${judgeNames.join(", ")}`;
    const chairModel = internalAgentModel(swarm, "chair", "council_judge_model_name");
    const chair = internalAgent(swarm, CHAIR, chairModel, chairPrompt, chairPlace);
    const chairInput = [
      `Material judged:\n${swarm.opening}`,
      "Reports of the judges:",
      ...reports.map((content, i) => `${judgeNames[i]} (dimension: ${judges[i].dimension}):\n${contentText(content)}`),
      "Merge these reports into one judgement.",
    ].join("\n\n");
    const verdict = await swarm.turn(chair.spec, chairInput, { lane: "chair", systemPrompt: chair.systemPrompt });
    swarm.conversation.add(jobTurn(CHAIR, chair.name, verdict));
    return swarm.conversation.turns;
  },
};
