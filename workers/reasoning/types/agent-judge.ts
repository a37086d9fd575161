import type { ReasoningTypeRunner } from "../reasoning-run";

const JUDGE_PROMPT = [
  "You are an expert judge of outputs produced by other agents or models.",
  "Evaluate the output you are given: its strengths, its weaknesses, its factual accuracy, and specific suggestions to improve it.",
  "End with a line `Score: <0-10>` rating its overall quality.",
].join("\n\n");

/**
 * AgentJudge: `max_loops` evaluations of the task's content (the output to judge), one after the
 * other, each seeing the content and every evaluation before it. Calls and depth L.
 */
export const agentJudge: ReasoningTypeRunner<"AgentJudge"> = {
  name: "AgentJudge",
  async run(run) {
    const judge = {
      name: run.nameOf(),
      prompt: run.answerPrompt(JUDGE_PROMPT),
      place: "judging the output it is given",
    };
    for (let loop = 0; loop < run.loops; loop++) {
      const ask =
        loop === 0
          ? "Evaluate this output."
          : "Evaluate this output again, building on the evaluations above: confirm, correct or deepen them.";
      const input = `${run.transcript()}\n\n${ask}`;
      run.record(judge.name, await run.call(judge, input, `l${loop}/judge`));
    }
  },
};
