import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type ContentBlock = CallToolResult["content"][number];

/** One content block as text: text as is, binary content as a short marker the model can mention. */
function blockText(block: ContentBlock): { text: string; isText: boolean } {
  switch (block.type) {
    case "text":
      return { text: block.text, isText: true };
    case "image":
      return { text: `[image: ${block.mimeType}]`, isText: false };
    case "audio":
      return { text: `[audio: ${block.mimeType}]`, isText: false };
    case "resource":
      if ("text" in block.resource && typeof block.resource.text === "string")
        return { text: block.resource.text, isText: true };
      return {
        text: `[resource: ${block.resource.uri}${block.resource.mimeType ? ` (${block.resource.mimeType})` : ""}]`,
        isText: false,
      };
    case "resource_link":
      return { text: `[resource link: ${block.name} ${block.uri}]`, isText: false };
    default:
      return { text: `[${(block as { type: string }).type}]`, isText: false };
  }
}

/**
 * A tool result as the text of a tool message: the content blocks' text joined by newlines,
 * non-text blocks as markers like `[image: image/png]`, and `structuredContent` as JSON when no
 * block carried text (servers may put the whole answer there), or the legacy `toolResult`. Never empty, because an empty tool
 * message reads to the model like a lost answer.
 */
export function toolResultText(result: {
  content?: ContentBlock[];
  structuredContent?: unknown;
  toolResult?: unknown;
}): string {
  const blocks = (result.content ?? []).map(blockText);
  const parts = blocks.map((b) => b.text).filter((t) => t !== "");
  if (!blocks.some((b) => b.isText && b.text !== "") && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  // Servers on protocol 2024-10-07 answer with `toolResult` instead of content.
  if (result.content === undefined && result.toolResult !== undefined)
    parts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  return parts.join("\n") || "(no content)";
}
