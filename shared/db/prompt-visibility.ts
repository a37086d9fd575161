/**
 * SQL condition on a `prompts` row (under `alias`): the prompt is listed, i.e. it is not
 * tokenized, or its token has launched. A prompt created with `tokenized_on` is stored before
 * its token exists and stays out of every listing, search and page until the chain worker records
 * the token; if the launch fails it is deleted. A prompt's `tokenized_on` is never true without a
 * token otherwise (an edit sets it only through a launch).
 */
export function listedPrompt(alias = "prompts"): string {
  return `(NOT ${alias}.tokenized_on OR ${alias}.token_address IS NOT NULL)`;
}

/**
 * SQL condition on a `prompts` row (under `alias`): every member of a bundle is approved (true for a prompt or an
 * agent). A bundle is sold as a whole: while one of its members waits for review or is rejected, buyers do not see it.
 */
function completeBundle(alias = "prompts"): string {
  return `(${alias}.kind <> 'bundle' OR NOT EXISTS (
    SELECT 1 FROM bundle_items bi JOIN prompts member ON member.id = bi.item_id
     WHERE bi.bundle_id = ${alias}.id AND member.status <> 'approved'))`;
}

/**
 * SQL condition on a `prompts` row (under `alias`): the viewer may see the prompt. Review decides
 * what the marketplace shows: an approved prompt (a bundle: approved with every member approved) is anyone's to see,
 * a prompt waiting for review or rejected only its owner's (`viewer`, the placeholder of a user id or null) and,
 * where the caller passes `moderator` (the placeholder of a boolean), a moderator's. Listed in every case.
 */
export function shownTo(placeholders: { viewer: string; moderator?: string }, alias = "prompts"): string {
  const moderator = placeholders.moderator ? ` OR ${placeholders.moderator}::boolean` : "";
  const approved = `${alias}.status = 'approved' AND ${completeBundle(alias)}`;
  return `((${approved}) OR ${alias}.user_id = ${placeholders.viewer}::uuid${moderator}) AND ${listedPrompt(alias)}`;
}
