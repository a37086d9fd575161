import type OpenAI from "openai";
import type { ChatRunRequest } from "./chat-run";

/** A part of a message item's content (files and audio are not taken). */
export type ResponseContentPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail?: "auto" | "low" | "high" }
  | { type: "output_text"; text: string; annotations?: unknown[] }
  | { type: "refusal"; refusal: string };

/** One item of a response's input, as the client gave it, with the id it is listed under (`input_items`). */
export type ResponseInputItem =
  | {
      type: "message";
      id: string;
      role: "user" | "system" | "developer" | "assistant";
      content: string | ResponseContentPart[];
    }
  | { type: "function_call"; id: string; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; id: string; call_id: string; output: string };

/** A tool of a response in the Responses shape (only `function` tools are taken). */
export type ResponseTool = OpenAI.Responses.FunctionTool;

/**
 * What a Responses API request asked beyond the model call itself: what `GET /v1/responses/{id}`
 * shows back, what `input_items` lists and what a later `previous_response_id` continues from.
 */
export interface ResponseSettings {
  /** The system message the call began with (never carried to a response that continues this one). */
  instructions: string | null;
  /** The input as items (a string input is one user message), each with its listed id. */
  input: ResponseInputItem[];
  /** The response this one continues: its conversation came first in `messages`. */
  previous_response_id: string | null;
  /** Whether the response can be read back and continued (`false`: it answers once, then is 404). */
  store: boolean;
  /** Whether the client was answered at once (`queued`) and reads the response later. */
  background: boolean;
  metadata: Record<string, string> | null;
  tools: ResponseTool[];
  tool_choice: OpenAI.Responses.Response["tool_choice"];
  parallel_tool_calls: boolean;
  /** The output format (`text`, `json_object` or `json_schema`). */
  text: OpenAI.Responses.ResponseTextConfig;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  reasoning_effort: string | null;
  service_tier: "auto" | "default" | "flex";
  user: string | null;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  /** Set once the client deleted the response: its input and output are erased, and it reads as 404. */
  deleted?: true;
}

/** What a `response` run stores in `runs.request`: the chat call it makes and the Responses settings. */
export type ResponseRunRequest = ChatRunRequest & { response: ResponseSettings };
