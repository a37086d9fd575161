/**
 * SQL condition on a `prompts` row (under `alias`): the prompt is listed, i.e. it is not
 * tokenized, or its token has launched. A prompt made by E7 with `tokenized_on` is stored before
 * its token exists and stays out of every listing, search and page until the chain worker records
 * the token; if the launch fails it is deleted. A prompt's `tokenized_on` is never true without a
 * token otherwise (E8 sets it only through a launch).
 */
export function listedPrompt(alias = "prompts"): string {
  return `(NOT ${alias}.tokenized_on OR ${alias}.token_address IS NOT NULL)`;
}
