import type { ReasoningRun, ReasoningTypeRunner } from "../reasoning-run";

/** How many knowledge statements GKP generates when the request does not say. */
const DEFAULT_KNOWLEDGE_ITEMS = 6;

function generatorPrompt(items: number): string {
  return [
    "You generate factual knowledge that helps answer a query. You do not answer it.",
    `Given a query, write ${items} separate, independent knowledge statements, each factually accurate, specific, directly relevant, neutral, and offering a different perspective from the others.`,
    'Format them exactly as "Knowledge 1: …", "Knowledge 2: …", and so on, one per statement.',
  ].join("\n\n");
}

const REASONER_PROMPT =
  "You answer a question using one piece of knowledge you are given. Explain how the knowledge bears on the question, then answer, and say how confident you are.";

const COORDINATOR_PROMPT =
  "You give the final answer to a question from several answers, each reasoned from a different piece of knowledge. Weigh them, resolve their disagreements, and answer clearly.";

/**
 * The knowledge statements of the generator's reply: the text after each `Knowledge <i>:` marker
 * in order, else its paragraphs; at most `items`, and the whole reply when it has neither.
 */
export function knowledgeItems(reply: string, items: number): string[] {
  const marked = reply
    .split(/Knowledge\s+\d+\s*:/i)
    .slice(1)
    .map((part) => part.trim())
    .filter(Boolean);
  const found = marked.length
    ? marked
    : reply
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean);
  return (found.length ? found : [reply.trim()]).slice(0, items);
}

/**
 * GKPAgent: the generator writes `num_knowledge_items` knowledge statements about the task; one
 * reasoner call per statement answers from it, all in parallel; the coordinator answers from every
 * (knowledge, answer) pair. Calls 1 + K + 1 (K the statements found, at most the number asked), depth 3.
 */
export const gkpAgent: ReasoningTypeRunner<"GKPAgent"> = {
  name: "GKPAgent",
  async run(run: ReasoningRun) {
    const items = run.request.num_knowledge_items ?? DEFAULT_KNOWLEDGE_ITEMS;
    const generator = { name: run.nameOf("knowledge"), prompt: generatorPrompt(items), place: "generating knowledge" };
    const reply = await run.call(generator, `Input: ${run.task}\nKnowledge:`, "knowledge");
    run.record(generator.name, reply);
    const knowledge = knowledgeItems(reply, items);

    const reasoner = {
      name: run.nameOf("reasoner"),
      prompt: REASONER_PROMPT,
      place: "answering from one piece of knowledge",
    };
    const answers = await run.parallel(knowledge, (item, i) =>
      run.call(reasoner, `Question: ${run.task}\nKnowledge: ${item}\nExplain and answer:`, `reason${i}`),
    );
    answers.forEach((answer) => run.record(reasoner.name, answer));

    const coordinator = {
      name: run.nameOf(),
      prompt: run.answerPrompt(COORDINATOR_PROMPT),
      place: "giving the final answer from every knowledge-based answer",
    };
    const pairs = knowledge
      .map((item, i) => `Knowledge ${i + 1}: ${item}\nAnswer ${i + 1}: ${answers[i]}`)
      .join("\n\n");
    const input = `Question: ${run.task}\n\n${pairs}\n\nGive the final answer.`;
    run.record(coordinator.name, await run.call(coordinator, input, "coordinate"));
  },
};
