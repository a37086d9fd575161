import type { ReasoningTypeRunner } from "../reasoning-run";

const REASONER_PROMPT = [
  "You reason before anyone answers. Analyse the task critically: restate it, consider several perspectives and approaches, weigh them, and work towards a conclusion.",
  "Write your reasoning inside <think> </think> tags, as many as the depth of the problem needs. Do not write the final answer for the user: another agent answers from your reasoning.",
].join("\n\n");

const MAIN_PROMPT = "You are a helpful assistant that answers questions and helps with tasks.";

/**
 * reasoning-duo (alias `reasoning-agent`): each of `max_loops` rounds, the reasoner reasons on the
 * task (from round 2: on the task and the transcript so far), then the main agent answers from
 * the transcript, which ends with that reasoning. Calls and depth 2·L.
 */
export const reasoningDuo: ReasoningTypeRunner<"reasoning-duo"> = {
  name: "reasoning-duo",
  async run(run) {
    const reasoner = {
      name: run.nameOf("reasoner"),
      prompt: REASONER_PROMPT,
      place: "reasoning before the main agent answers",
    };
    const main = {
      name: run.nameOf(),
      prompt: run.answerPrompt(MAIN_PROMPT),
      place: "answering from the reasoner's reasoning",
    };
    for (let loop = 0; loop < run.loops; loop++) {
      const reasonerInput =
        loop === 0
          ? run.task
          : `Continue reasoning and refine your analysis. Original task: ${run.task}\n\nThe conversation so far:\n${run.transcript()}`;
      run.record(reasoner.name, await run.call(reasoner, reasonerInput, `l${loop}/reasoner`));
      run.record(main.name, await run.call(main, run.transcript(), `l${loop}/main`));
    }
  },
};
