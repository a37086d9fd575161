import type { ReasoningTypeRunner } from "../reasoning-run";

/** How many samples self-consistency takes when the request does not say. */
const DEFAULT_SAMPLES = 3;

const SAMPLE_PROMPT = [
  "You are a reasoning agent for complex problems and decisions. Understand the problem thoroughly, reason through it step by step, and state a clear final answer.",
  "Your answer is one of several independent ones; be complete on your own.",
].join("\n\n");

const MAJORITY_VOTING_PROMPT = [
  "You aggregate several independent answers to the same task into one final answer by majority voting.",
  "1. Identify the answer most of them give, and why it dominates.",
  "2. Note significant disagreements and their causes.",
  "3. Evaluate whether the majority is well supported; keep any minority insight that matters.",
  "4. End with the final answer: the one the majority converges on, corrected if its reasoning is faulty.",
].join("\n");

/**
 * self-consistency (alias `consistency-agent`): `num_samples` answers to the task by independent
 * calls, all in parallel (each sample an agent of `max_loops` loops), then the aggregator sees
 * every answer and finds the majority's. Calls N·L + 1, depth L + 1.
 */
export const selfConsistency: ReasoningTypeRunner<"self-consistency"> = {
  name: "self-consistency",
  async run(run) {
    const samples = run.request.num_samples ?? DEFAULT_SAMPLES;
    const sampler = {
      name: run.nameOf(),
      prompt: run.answerPrompt(SAMPLE_PROMPT),
      place: "giving one of several independent answers",
      loops: run.loops,
    };
    const answers = await run.parallel(
      Array.from({ length: samples }, (_, i) => i),
      (i) => run.call(sampler, run.task, `sample${i}`),
    );
    answers.forEach((answer) => run.record(sampler.name, answer));
    const aggregator = {
      name: run.nameOf("aggregator"),
      prompt: MAJORITY_VOTING_PROMPT,
      place: `aggregating the ${samples} answers into the final one`,
    };
    const listed = answers.map((answer, i) => `Answer ${i + 1}:\n${answer}`).join("\n\n");
    const input = `Task:\n${run.task}\n\nThe ${samples} independent answers:\n\n${listed}\n\nGive the majority's final answer.`;
    run.record(aggregator.name, await run.call(aggregator, input, "aggregate"));
  },
};
