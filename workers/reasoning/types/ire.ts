import type { ReasoningRun, ReasoningTypeRunner } from "../reasoning-run";

/** How many solution paths IRE keeps when the request does not say. */
const DEFAULT_PATHS = 3;

/** A simulated path scoring below this (out of 1) is reflected on and revised. */
const PASSING_SCORE = 0.7;

const IRE_PROMPT =
  "You solve complex problems by iterative reflection: you propose solution paths, simulate them, reflect on their errors, revise them, and synthesise the best solution.";

/** The non-empty lines of a reply, at most `max`: the paths it proposes. */
function lines(reply: string, max: number): string[] {
  const found = reply
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return (found.length ? found : [reply.trim()]).slice(0, max);
}

/**
 * The `Score:` and `Errors:` lines of a simulation (a missing or unreadable score is 0). Spaces
 * are `[ \t]`, not `\s`: with `m`, a `\s*` at a line start runs across the following lines, and a
 * model's answer of 40,000 newlines took 12 s to read.
 */
export function simulationVerdict(reply: string): { score: number; errors: string } {
  const score = /^[ \t]*(?:\d\.[ \t]*)?Score:[ \t]*([0-9]*\.?[0-9]+)/im.exec(reply);
  const errors = /^[ \t]*(?:\d\.[ \t]*)?Errors:[ \t]*(.*)$/im.exec(reply);
  return { score: score ? Number(score[1]) : 0, errors: errors?.[1].trim() || reply };
}

/** One path through simulation, and, when it scores below the pass mark, reflection and revision. */
async function expand(run: ReasoningRun, agent: ReturnType<typeof ireAgent>, path: string, lane: string) {
  const problem = `Problem: ${run.task}`;
  const simulation = await run.call(
    agent,
    `${problem}\n\nSimulate the following reasoning path step by step and give:\nOutcome: a brief summary of the resulting solution\nScore: its effectiveness from 0.0 to 1.0\nErrors: its errors or shortcomings\n\nReasoning path: ${path}`,
    `${lane}/simulate`,
  );
  const turns = [simulation];
  const { score, errors } = simulationVerdict(simulation);
  if (score >= PASSING_SCORE) return { paths: [path], turns };
  const feedback = await run.call(
    agent,
    `${problem}\n\nAnalyse these errors of a reasoning path and suggest how to improve it, clearly and actionably:\n${errors}`,
    `${lane}/reflect`,
  );
  const revised = await run.call(
    agent,
    `${problem}\n\nRevise the reasoning path:\n${path}\n\nusing this feedback:\n${feedback}\n\nWrite each revised path on its own line.`,
    `${lane}/revise`,
  );
  return { paths: lines(revised, Number.MAX_SAFE_INTEGER), turns: [...turns, feedback, revised] };
}

function ireAgent(run: ReasoningRun) {
  return {
    name: run.nameOf(),
    prompt: run.answerPrompt(IRE_PROMPT),
    place: "reasoning by iterative reflective expansion",
  };
}

/**
 * ire (alias `ire-agent`, Iterative Reflective Expansion): proposes solution paths (at most
 * `num_samples`); then `max_loops` times: simulates every path in parallel, and reflects on and
 * revises each one scoring below 0.7; then selects the most promising of the expanded paths (at
 * most `num_samples`). Finally synthesises a solution from the selected paths and every path tried.
 */
export const ire: ReasoningTypeRunner<"ire"> = {
  name: "ire",
  async run(run) {
    const breadth = run.request.num_samples ?? DEFAULT_PATHS;
    const agent = ireAgent(run);
    const proposal = await run.call(
      agent,
      `Given the following problem:\n\n${run.task}\n\nList up to ${breadth} possible approaches to solve it, one per line.`,
      "hypotheses",
    );
    run.record(agent.name, proposal);
    let paths = lines(proposal, breadth);
    const tried: string[] = [];
    for (let loop = 0; loop < run.loops; loop++) {
      const expanded = await run.parallel(paths, (path, i) => expand(run, agent, path, `l${loop}/p${i}`));
      expanded.forEach((e) => e.turns.forEach((turn) => run.record(agent.name, turn)));
      tried.push(...paths);
      const selection = await run.call(
        agent,
        `Problem: ${run.task}\n\nEvaluate these reasoning paths and list the ${breadth} most promising for further exploration, one per line:\n${expanded.flatMap((e) => e.paths).join("\n")}`,
        `l${loop}/select`,
      );
      run.record(agent.name, selection);
      paths = lines(selection, breadth);
    }
    const solution = await run.call(
      agent,
      `Problem: ${run.task}\n\nThe most promising reasoning paths:\n${paths.join("\n")}\n\nEvery path tried:\n${tried.join("\n")}\n\nSynthesise a final, coherent solution to the problem.`,
      "synthesise",
    );
    run.record(agent.name, solution);
  },
};
