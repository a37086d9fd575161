import type { Operation } from "../../../openapi/operation";
import { platformError } from "../../../openapi/shared-parts";
import { moderatePromptResponseSchema } from "../../../schemas/prompt-response.schema";
import { moderatePromptSchema } from "../../../schemas/moderate-prompt.schema";

/** The moderation endpoint, described from the schema the route validates with. */
export const moderationOperations: Operation[] = [
  {
    method: "post",
    path: "/api/moderate-prompt",
    summary: "Approve or reject a prompt (moderators only)",
    description:
      "Only a moderator (a role the operator grants: `npm run apikey -- role --user <handle> moderator`) moves a prompt to `approved` or out of `rejected`; " +
      "the `status` an owner sends to `POST /api/add-prompt` or `POST /api/edit-prompt` is only a request. An approved prompt is listed by `POST /v1/marketplace/agents`, `POST /api/query-prompts` and its page; a rejected one is seen by its owner only. " +
      "Moderators find prompts waiting for review with `POST /api/query-prompts` (they see every status, and paid prompts' text), and send back the record's `updated_at`: " +
      "a decision applies to the version reviewed, and a prompt changed since is 409.",
    tags: ["Moderation"],
    access: "platform",
    request: { body: moderatePromptSchema },
    responses: {
      200: { description: "Decided; `updated_data` is the prompt as stored", body: moderatePromptResponseSchema },
      403: platformError(
        "The caller is not a moderator (`NOT_MODERATOR`), or the prompt is the moderator's own (`OWN_PROMPT`)",
      ),
      404: platformError("No prompt with that id"),
      409: platformError(
        "The prompt changed after the version reviewed (`PROMPT_CHANGED`, with its current `updated_at`): review it again",
      ),
    },
  },
];
