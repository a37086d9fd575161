import type OpenAI from "openai";
import { functionOfToolItem } from "../../shared/llm/function-tool-items";

export type FunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/**
 * `tools_list_dictionary` items as OpenAI function tools. Clients send either the OpenAI shape
 * (`{type: "function", function: {...}}`) or the bare function (`{name, description, parameters}`).
 */
export function functionTools(items: Record<string, unknown>[] | null | undefined): FunctionTool[] {
  return (items ?? []).flatMap((item): FunctionTool[] => {
    const fn = functionOfToolItem(item);
    if (typeof fn.name !== "string" || !fn.name) return [];
    const parameters = (
      fn.parameters && typeof fn.parameters === "object" ? fn.parameters : { type: "object", properties: {} }
    ) as Record<string, unknown>;
    return [
      {
        type: "function",
        function: { name: fn.name, description: typeof fn.description === "string" ? fn.description : "", parameters },
      },
    ];
  });
}
