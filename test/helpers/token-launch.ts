import {
  getAssociatedTokenAddressSync,
  getAccount,
  getMint,
  getTokenMetadata,
  TOKEN_2022_PROGRAM_ID,
} from "@solana/spl-token";
import { PublicKey, type Connection } from "@solana/web3.js";

/** POSTs `/api/token/launch` as JSON (or as the given multipart form) with a platform API key. */
export async function postLaunch(
  platformUrl: string,
  key: string | null,
  body: Record<string, unknown> | FormData,
  headers: Record<string, string> = {},
) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${platformUrl}/api/token/launch`, {
    method: "POST",
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(isForm ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** What the chain says about a launched Token-2022 mint: its mint account, metadata and the creator's holding. */
export async function readLaunchedToken(connection: Connection, mintAddress: string, creator: PublicKey) {
  const mint = new PublicKey(mintAddress);
  const [info, metadata] = await Promise.all([
    getMint(connection, mint, "confirmed", TOKEN_2022_PROGRAM_ID),
    getTokenMetadata(connection, mint, "confirmed"),
  ]);
  const holding = await getAccount(
    connection,
    getAssociatedTokenAddressSync(mint, creator, false, TOKEN_2022_PROGRAM_ID),
    "confirmed",
    TOKEN_2022_PROGRAM_ID,
  );
  return { info, metadata, holding };
}
