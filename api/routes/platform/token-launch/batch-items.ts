import type { CreatorKey } from "../../../../shared/chain/creator-key";
import { platformBody } from "../../../http/error-bodies";
import { toIssues } from "../../../http/validate";
import { fieldPath, PlatformError, platformValidationError } from "../../../platform-error";
import { tokenLaunchSchema, type TokenLaunchBody } from "../../../schemas/token-launch-request.schema";
import { validateRequest } from "../../../schemas/validate-request";
import type { BatchLaunchFailure, BatchLaunchOutcome, BatchLaunchSuccess } from "../../../token-launch/launch-batch";

// An item may leave its key to the batch's default, already parsed.
const itemWithoutKeySchema = tokenLaunchSchema.fork(["private_key"], (key) => key.optional());

/**
 * A batch item checked by the single launch's schema, with the batch's default key when it gives none; a bad item is
 * the single launch's 400 `Validation error`, returned for the item alone.
 */
export function batchItem(
  item: Record<string, unknown>,
  defaultKey: CreatorKey | undefined,
): TokenLaunchBody | PlatformError {
  const useDefault = item.private_key === undefined && defaultKey !== undefined;
  const { value, error } = validateRequest(useDefault ? itemWithoutKeySchema : tokenLaunchSchema, item);
  if (error) return platformValidationError(toIssues(error).map((i) => ({ path: fieldPath(i.loc), message: i.msg })));
  return useDefault ? { ...(value as TokenLaunchBody), private_key: defaultKey } : (value as TokenLaunchBody);
}

type RenderedFailure = Omit<BatchLaunchFailure, "error"> & { error: Record<string, unknown> };

/** The batch's answer: the outcomes, each failure with its platform error body, and the figures. */
export function batchAnswer(outcomes: BatchLaunchOutcome[]) {
  const results = outcomes.map((o): BatchLaunchSuccess | RenderedFailure => {
    if (o.success) return o;
    const { status, category, message, code, extra } = o.error;
    return { ...o, error: platformBody(status, category, message, code, extra) };
  });
  const failures = results.filter((r): r is RenderedFailure => !r.success);
  return {
    success: failures.length === 0,
    total: results.length,
    succeeded: results.length - failures.length,
    failed: failures.length,
    results,
    failures,
  };
}
