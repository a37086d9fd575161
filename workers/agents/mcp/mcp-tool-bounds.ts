import {
  boundText,
  MCP_TOOL_DESCRIPTION_MAX_CHARS,
  MCP_TOOL_SCHEMA_MAX_CHARS,
  MCP_TOOLS_MAX,
  MCP_TOOLS_TOTAL_MAX_CHARS,
} from "../../../shared/limits/outside-content";
import { findJsonHazard, MAX_JSON_DEPTH } from "../../../shared/json/json-hazards";
import { toolParameters, type JsonSchemaObject } from "./mcp-tool-schema";

type McpListedTool = { name: string; description?: string; inputSchema?: unknown };

/** A listed tool as the model would be offered it, before its name is made unique. */
interface OfferedTool {
  description: string;
  parameters: JsonSchemaObject;
}

/**
 * Keeps an agent's MCP tool list within its bounds, tool by tool in listing order: at most
 * `MCP_TOOLS_MAX` tools and `MCP_TOOLS_TOTAL_MAX_CHARS` in all; a description is cut to
 * `MCP_TOOL_DESCRIPTION_MAX_CHARS`; a tool whose schema is over `MCP_TOOL_SCHEMA_MAX_CHARS` is
 * left out, since a cut schema is not a schema. Tools that do not fit are left out rather than the
 * server refused: the model can still use the ones that came first.
 */
export class McpToolListBounds {
  private count = 0;
  private chars = 0;

  /** The tool as it may be offered, or null when it does not fit (and is left out). */
  admit(tool: McpListedTool, description: string): OfferedTool | null {
    if (this.count >= MCP_TOOLS_MAX) return null;
    // Nested deeper than any request may be, a schema would overflow the stack of every walk of it
    // (JSON.stringify included): left out, as a schema too large is.
    if (findJsonHazard(tool.inputSchema, MAX_JSON_DEPTH, { text: false })) return null;
    const parameters = toolParameters(tool.inputSchema);
    const schemaChars = JSON.stringify(parameters).length;
    if (schemaChars > MCP_TOOL_SCHEMA_MAX_CHARS) return null;
    const cut = boundText(description, MCP_TOOL_DESCRIPTION_MAX_CHARS).text;
    const size = Math.min(tool.name.length, 64) + cut.length + schemaChars;
    if (this.chars + size > MCP_TOOLS_TOTAL_MAX_CHARS) return null;
    this.count++;
    this.chars += size;
    return { description: cut, parameters };
  }
}
