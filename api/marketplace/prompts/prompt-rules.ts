import { CreatorKey, isPublicKey, keyMatchesWallet } from "../../../shared/chain/creator-key";
import type { FieldProblem } from "../../platform-error";
import type { PromptFields } from "./prompt-fields";

const absent = (value: unknown) => value === undefined || value === null || value === "";

/**
 * The rules of E7 that join fields, checked on a whole record (E7's body, or E8's stored record
 * with the edit applied): rule 1, a price above 0 when not free; rule 2, `ticker`,
 * `creator_wallet` and a `private_key` that belongs to it when `tokenized_on`.
 */
export function crossFieldProblems(record: Partial<PromptFields>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (record.is_free === false && !(typeof record.price_usd === "number" && record.price_usd > 0)) {
    problems.push({
      path: "price_usd",
      message: "'price_usd' is required and must be greater than 0 when 'is_free' is false",
    });
  }
  if (record.tokenized_on === true) {
    for (const field of ["ticker", "creator_wallet", "private_key"] as const) {
      if (absent(record[field]))
        problems.push({ path: field, message: `'${field}' is required when 'tokenized_on' is true` });
    }
    const key = record.private_key;
    // A wallet that is no public key has its own problem; the key is compared only with a real one.
    if (
      key instanceof CreatorKey &&
      typeof record.creator_wallet === "string" &&
      isPublicKey(record.creator_wallet) &&
      !keyMatchesWallet(key, record.creator_wallet)
    ) {
      problems.push({ path: "private_key", message: "'private_key' does not belong to 'creator_wallet'" });
    }
  }
  return problems;
}
