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

/** The generator's input when its first reply held fewer statements than asked: the ones it wrote, and how many more. */
function moreKnowledgeInput(task: string, found: string[], missing: number): string {
  const written = found.map((item, i) => `Knowledge ${i + 1}: ${item}`).join("\n");
  return [
    `Input: ${task}`,
    `Knowledge already written:\n${written}`,
    `Write ${missing} more, each different from those above, numbered from Knowledge ${found.length + 1}.`,
    "Knowledge:",
  ].join("\n\n");
}

/** The statements of `more` that repeat none of `found` nor each other (compared case-insensitive). */
function newStatements(found: string[], more: string[]): string[] {
  const seen = new Set(found.map((item) => item.toLowerCase()));
  const fresh: string[] = [];
  for (const item of more) {
    if (seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    fresh.push(item);
  }
  return fresh;
}

/**
 * The knowledge statements for the run: the generator writes `items`; when its reply holds fewer,
 * it is asked once more for the rest (shown the ones it wrote), so a short reply costs one call,
 * never an unbounded retry. Still short, the run goes on with what it has and its output says so
 * in a `system` turn, since a silent shortfall would read as the K answers asked for.
 */
async function generateKnowledge(run: ReasoningRun, items: number): Promise<string[]> {
  const name = run.nameOf("knowledge");
  const generator = { name, prompt: generatorPrompt(items), place: "generating knowledge" };
  const reply = await run.call(generator, `Input: ${run.task}\nKnowledge:`, "knowledge");
  run.record(name, reply);
  const knowledge = knowledgeItems(reply, items);
  if (knowledge.length >= items) return knowledge;

  const missing = items - knowledge.length;
  const asked = { ...generator, prompt: generatorPrompt(missing) };
  const more = await run.call(asked, moreKnowledgeInput(run.task, knowledge, missing), "knowledge-more");
  run.record(name, more);
  knowledge.push(...newStatements(knowledge, knowledgeItems(more, missing)).slice(0, missing));
  const n = knowledge.length;
  if (n < items)
    run.record(
      "system",
      `Only ${n} of the ${items} knowledge statements asked for (num_knowledge_items) ${n === 1 ? "was" : "were"} written, after asking ${name} twice: the answer is reasoned from ${n === 1 ? "it" : "them"} alone.`,
    );
  return knowledge;
}

/**
 * GKPAgent: the generator writes `num_knowledge_items` knowledge statements about the task (asked
 * once more for the rest when it writes fewer); one reasoner call per statement answers from it,
 * all in parallel; the coordinator answers from every (knowledge, answer) pair. Calls 1 + K + 1
 * (one more when the generator is asked again; K the statements found, at most the number asked), depth 3 (or 4).
 */
export const gkpAgent: ReasoningTypeRunner<"GKPAgent"> = {
  name: "GKPAgent",
  async run(run: ReasoningRun) {
    const items = run.request.num_knowledge_items ?? DEFAULT_KNOWLEDGE_ITEMS;
    const knowledge = await generateKnowledge(run, items);

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
