import type { PlatformCaller } from "../../auth/platform-caller";
import type { ApiDeps } from "../../deps";
import type { DataSource } from "typeorm";
import type { PlatformServices } from "../platform-services";
import { createPrompt } from "../prompts/create-prompt";
import { promptListingUrl } from "../prompts/prompt-record";
import { queryListings, type PromptQuery } from "../prompts/query-prompts";
import { editListing } from "../prompts/update-prompt";
import { agentAsListing, toAgentRecord, type AgentFields, type AgentRecord } from "./agent-record";

/** Agent creation's success body. */
export interface CreateAgentResult {
  success: true;
  id: string;
  listing_url: string;
}

/** Agent editing's success body: `updated_data` is the stored record after the update. */
export interface UpdateAgentResult extends CreateAgentResult {
  updated_data: AgentRecord;
}

/**
 * `POST /api/add-agent`: an agent listing, created as a prompt is (duplicate of the caller's agents, today's limit,
 * content validation of the name, description, use cases and definition, the seller's trust for a paid one, the
 * price, the image, then review), in the same table with `kind` agent.
 */
export async function createAgent(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  fields: AgentFields,
): Promise<CreateAgentResult> {
  const listing = { ...agentAsListing(fields), tokenized_on: false };
  const { id, listing_url } = await createPrompt(deps, services, caller, listing, { kind: "agent" });
  return { success: true, id, listing_url };
}

/** `POST /api/edit-agent`: a partial update of one of the caller's agents, under prompt editing's rules. */
export async function editAgent(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  edit: Partial<AgentFields> & { id: string },
): Promise<UpdateAgentResult> {
  const { id, ...fields } = edit;
  const row = await editListing(deps, services, caller, { id, ...agentAsListing(fields) }, "agent");
  return {
    success: true,
    id: row.id,
    listing_url: promptListingUrl(row.id, "agent"),
    updated_data: toAgentRecord(row, caller.userId),
  };
}

/** `POST /api/query-agents`: `POST /api/query-prompts` over agent listings. */
export async function queryAgents(ds: DataSource, query: PromptQuery, viewerId: string | null): Promise<AgentRecord[]> {
  const { rows, moderator } = await queryListings(ds, query, viewerId, "agent");
  return rows.map((row) => toAgentRecord(row, viewerId, moderator));
}
