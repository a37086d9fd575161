import type { ReasoningOutputType } from "../../shared/contracts/reasoning-request";
import type { SwarmTurn } from "../../shared/contracts/swarm-request";
import { contentText } from "../../shared/swarms/opening";

/** A turn as the output shows it: its role and its content as text. */
interface Message {
  role: string;
  content: string;
}

const asText = (messages: Message[]) => messages.map((m) => `${m.role}: ${m.content}`).join("\n\n");

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** YAML of the messages; every scalar double-quoted as JSON writes it, which YAML reads the same. */
const asYaml = (messages: Message[]) =>
  messages.map((m) => `- role: ${JSON.stringify(m.role)}\n  content: ${JSON.stringify(m.content)}`).join("\n") + "\n";

const asXml = (messages: Message[]) =>
  `<conversation>${messages
    .map((m) => `<message><role>${escapeXml(m.role)}</role><content>${escapeXml(m.content)}</content></message>`)
    .join("")}</conversation>`;

/**
 * A run's turns (the task first) in one `output_type`, as docs/reasoning-agents.md "Output types"
 * defines each; the reference framework's `dict-final` (a pair of the same text) and `basemodel`
 * (an error) are given useful shapes instead.
 */
export function formatOutput(turns: SwarmTurn[], type: ReasoningOutputType): unknown {
  const all: Message[] = turns.map((t) => ({ role: t.role, content: contentText(t.content) }));
  const last = all.at(-1) ?? { role: "user", content: "" };
  switch (type) {
    case "list":
      return all.map((m) => `${m.role}: ${m.content}`);
    case "dict":
    case "dictionary":
      return all;
    case "string":
    case "str":
    case "all":
      return asText(all);
    case "final":
    case "last":
      return last.content;
    case "json":
      return JSON.stringify(all);
    case "yaml":
      return asYaml(all);
    case "xml":
      return asXml(all);
    case "dict-all-except-first":
      return all.slice(1);
    case "str-all-except-first":
      return asText(all.slice(1));
    case "basemodel":
      return { messages: all };
    case "dict-final":
      return last;
    case "list-final":
      return [last.content];
  }
}
