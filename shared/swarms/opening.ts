import type { SwarmMessage, SwarmRequest } from "../contracts/swarm-request";

/** Text of a message's or turn's content, as agents read it. */
export function contentText(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** `messages` as a list, whatever shape the client sent: the messages the run opens with. */
export function messageList(messages: SwarmRequest["messages"]): SwarmMessage[] {
  if (!messages || Object.keys(messages).length === 0) return [];
  if (Array.isArray(messages)) return messages;
  if (Array.isArray(messages.messages)) return messages.messages as SwarmMessage[];
  if ("content" in messages) return [messages as unknown as SwarmMessage];
  return [{ role: "context", content: messages }];
}

/**
 * Where a swarm run starts (docs/swarm-types.md, "Swarms"): the conversation in `messages`, then `task` appended
 * after it. With `tasks` and no `task`, `task` is the grid entry being run.
 */
export function openingText(
  request: Pick<SwarmRequest, "messages" | "task">,
  task: string | null | undefined = request.task,
): string {
  const lines = messageList(request.messages).map((m) => `${m.name ?? m.role ?? "user"}: ${contentText(m.content)}`);
  return [...lines, ...(task?.trim() ? [task] : [])].join("\n\n");
}
