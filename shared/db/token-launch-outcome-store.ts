import type { DataSource } from "typeorm";
import { sql, transaction } from "./sql";
import { markListingFailed, markListingLaunched } from "./agent-listing-store";
import { giveBackCount } from "./daily-usage-store";
import type { TokenLaunchRow } from "./entities/token-launch.entity";
import { deleteUnlaunchedPrompt, recordPromptToken } from "./prompt-store";
import type { TokenLaunch } from "./token-launch-store";

// How a launch's end settles what it was for: its agent listing, or its prompt and the daily count the prompt took.

/**
 * The launch landed: the launch is confirmed and its listing (or prompt) gets the token's
 * addresses. A prompt reads as tokenized from here on, with the ticker its token was launched with.
 */
export async function markLaunchConfirmed(ds: DataSource, launch: TokenLaunch): Promise<void> {
  await transaction(ds, async (tx) => {
    await sql(
      tx,
      `UPDATE token_launches SET status = 'confirmed', confirmed_at = now(), updated_at = now() WHERE id = $1`,
      [launch.id],
    );
    const token = { mintAddress: launch.mint_address, poolAddress: launch.pool_address };
    if (launch.listing_id) await markListingLaunched(tx, launch.listing_id, token);
    if (launch.prompt_id) await recordPromptToken(tx, launch.prompt_id, { ...token, ticker: launch.ticker });
  });
}

/**
 * The launch failed for good (a confirmed launch is left alone). What it was for must not look
 * half made:
 * - an agent listing becomes `failed`: kept (with the launch row and any signature, for support and
 *   reconciliation) but never shown;
 * - a prompt made for this launch (created with `tokenized_on` and no token yet, never shown) is deleted and
 *   the daily count it took is given back, so the user can send it again at once; the launch row
 *   stays, its `prompt_id` cleared. A prompt that existed before (an edit turning tokenization on) is
 *   left as it was.
 */
export async function markLaunchFailed(ds: DataSource, launchId: string, message: string): Promise<void> {
  await transaction(ds, async (tx) => {
    const [launch] = await sql<
      Pick<TokenLaunchRow, "listing_id" | "prompt_id" | "user_id" | "quota_counter" | "quota_day">
    >(
      tx,
      `UPDATE token_launches SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status <> 'confirmed'
         RETURNING listing_id, prompt_id, user_id, quota_counter, to_char(quota_day, 'YYYY-MM-DD') AS quota_day`,
      [launchId, message],
    );
    if (!launch) return;
    if (launch.listing_id) await markListingFailed(tx, launch.listing_id);
    if (launch.prompt_id && (await deleteUnlaunchedPrompt(tx, launch.prompt_id))) {
      if (launch.quota_counter && launch.quota_day)
        await giveBackCount(tx, launch.user_id, launch.quota_counter, launch.quota_day);
    }
  });
}
