import { isJsonObject, type DecisionTool } from "../structured-decision";

/** The internal judge's role name: its turns appear under it (docs/swarm-types.md, "Output shapes"). */
export const JUDGE = "Judge";
/** The judging decision's tool name. */
export const JUDGE_TOOL = "judge_goal";

export interface Verdict {
  goal_met: boolean;
  missing: string;
}

/** The Judge turn's readable text. */
export function renderVerdict(verdict: Verdict): string {
  const missing = verdict.missing.trim();
  return verdict.goal_met ? `Goal met.${missing ? `\nNotes: ${missing}` : ""}` : `Goal not met.\nMissing: ${missing}`;
}

export function verdictTool(): DecisionTool {
  return {
    name: JUDGE_TOOL,
    description: "Decide whether the results meet the goal, and say what is missing when they do not.",
    parameters: {
      type: "object",
      properties: {
        goal_met: { type: "boolean", description: "true when the results fully meet the goal" },
        missing: { type: "string", description: "What is still missing to meet the goal (empty when it is met)" },
      },
      required: ["goal_met", "missing"],
      additionalProperties: false,
    },
  };
}

export function verdictProblem(value: unknown): string | null {
  if (!isJsonObject(value)) return "the arguments must be an object with 'goal_met' and 'missing'";
  const problems: string[] = [];
  if (typeof value.goal_met !== "boolean") problems.push("'goal_met' must be true or false");
  if (typeof value.missing !== "string") problems.push("'missing' must be a string");
  else if (value.goal_met === false && !value.missing.trim())
    problems.push("say what is missing when the goal is not met");
  return problems.length ? problems.join("; ") : null;
}
