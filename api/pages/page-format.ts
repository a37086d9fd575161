import { isObjectKey } from "../../shared/storage";

/** Small formatting rules shared by the server-rendered pages. */

/** Where the platform serves stored images itself (`GET /images/<key>`). */
export const IMAGES_PATH = "/images";

/**
 * The platform's own path of a listing's image, or null: only an image the platform stored (its
 * URL ends in a content-hash key) is shown, from this site, so no viewer's browser asks anyone
 * else. Any other URL (a seller's server, a launch's metadata address) shows no image.
 */
export function storedImagePath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048) return null;
  const key = value.slice(value.lastIndexOf("/") + 1);
  return isObjectKey(key) ? `${IMAGES_PATH}/${key}` : null;
}

/** A date as the pages print it (`2025-11-22 14:05 UTC`) and as `<time datetime>` carries it. */
export interface PageDate {
  iso: string;
  text: string;
}

export function pageDate(value: Date | string): PageDate {
  const date = new Date(value);
  const iso = date.toISOString();
  return { iso, text: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` };
}

/**
 * The URL when it is an absolute http(s) address, else null. Stored URLs come from users: anything
 * else (`javascript:`, `data:`, relative paths) must never become an `href` or `src`.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const amount = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

export function formatUsd(value: number): string {
  return usd.format(value);
}

export function formatAmount(value: number): string {
  return amount.format(value);
}

/** A cost in US dollars as the pages print it, to the millionth a bill is kept in (`$0.001234`, a credit `-$0.0015`). */
export function formatDollars(cost: number): string {
  return cost < 0 ? `-$${formatAmount(-cost)}` : `$${formatAmount(cost)}`;
}

/** Tokens read and written as the pages print them (`1,204 in / 310 out`). */
export function formatTokens(input: number, output: number): string {
  return `${formatAmount(input)} in / ${formatAmount(output)} out`;
}
