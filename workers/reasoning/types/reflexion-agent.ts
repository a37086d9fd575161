import type { ReasoningTypeRunner } from "../reasoning-run";

/** How many past reflections the agent keeps when the request does not say. */
const DEFAULT_MEMORY_CAPACITY = 6;

/** A score (out of 10) above which an answer needs no further round. */
const GOOD_ENOUGH = 9;

const ACTOR_PROMPT =
  "You give thorough, accurate and helpful responses to tasks, and improve them when you are given an evaluation and your own reflections on earlier attempts.";

const EVALUATOR_PROMPT = [
  "You critically evaluate a response to a task: its accuracy, completeness, clarity and usefulness, naming concrete strengths and weaknesses.",
  "End with a line `Final score: <0-10>`.",
].join("\n\n");

const REFLECTOR_PROMPT =
  "You reflect on a response and its evaluation: what went wrong, why, and what to do differently next time. Write lessons the author can apply in the next attempt.";

/**
 * The last `Final score: <n>` (or `Overall score`) of an evaluation, out of 10; 5 when it gives
 * none. The colon takes its own spaces (`\s*(?::\s*)?`): two `\s*` around an optional colon try
 * every split of a run of spaces, and 40,000 of them took 3.5 s.
 */
export function evaluationScore(evaluation: string): number {
  const scores = [...evaluation.matchAll(/(?:final|overall)\s+score\s*(?::\s*)?(\d+(?:\.\d+)?)/gi)];
  const last = scores.at(-1);
  return last ? Math.min(10, Number(last[1])) : 5;
}

/**
 * ReflexionAgent: up to `max_loops` rounds. Round 1 the actor answers the task; each later round
 * it refines the previous response from its evaluation, its reflection and the remembered
 * reflections (the last `memory_capacity`). Each response is evaluated with a score; a round that
 * scores above 9 out of 10, or is the last, ends the run; otherwise the reflector reflects and the
 * reflection is remembered. The answer is the best-scored response. Calls and depth 3·L − 1 at most.
 */
export const reflexionAgent: ReasoningTypeRunner<"ReflexionAgent"> = {
  name: "ReflexionAgent",
  async run(run) {
    const capacity = run.request.memory_capacity ?? DEFAULT_MEMORY_CAPACITY;
    const actor = { name: run.nameOf(), prompt: run.answerPrompt(ACTOR_PROMPT), place: "answering and refining" };
    const evaluator = { name: run.nameOf("evaluator"), prompt: EVALUATOR_PROMPT, place: "evaluating the answer" };
    const reflector = {
      name: run.nameOf("reflector"),
      prompt: REFLECTOR_PROMPT,
      place: "reflecting on the evaluation",
    };
    const memory: string[] = [];
    let previous: { response: string; evaluation: string } | null = null;
    let best = { response: "", score: -1 };
    for (let loop = 0; loop < run.loops; loop++) {
      const input: string = previous
        ? [
            `Task: ${run.task}`,
            `Your previous response:\n${previous.response}`,
            `Its evaluation:\n${previous.evaluation}`,
            `Your reflections so far, oldest first:\n${memory.map((m, i) => `Reflection ${i + 1}: ${m}`).join("\n\n")}`,
            "Write an improved response to the task that addresses the evaluation and applies the reflections.",
          ].join("\n\n")
        : run.task;
      const response = await run.call(actor, input, `l${loop}/act`);
      run.record(actor.name, response);

      const evaluation = await run.call(
        evaluator,
        `Task: ${run.task}\n\nResponse to evaluate:\n${response}`,
        `l${loop}/evaluate`,
      );
      run.record(evaluator.name, evaluation);
      const score = evaluationScore(evaluation);
      if (score > best.score) best = { response, score };
      if (score > GOOD_ENOUGH || loop === run.loops - 1) break;

      const reflection = await run.call(
        reflector,
        `Task: ${run.task}\n\nResponse:\n${response}\n\nEvaluation:\n${evaluation}\n\nReflect on it.`,
        `l${loop}/reflect`,
      );
      run.record(reflector.name, reflection);
      memory.push(reflection);
      if (memory.length > capacity) memory.shift();
      previous = { response, evaluation };
    }
    // The answer comes last, so `final` and the other one-message output types give it.
    run.record(actor.name, best.response);
  },
};
