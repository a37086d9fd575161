/** Replaces each secret in `text` with `[redacted]`, longest first so a token inside a header value goes too. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret) result = result.split(secret).join("[redacted]");
  return result;
}

/**
 * The server's URL as it may be shown in messages: scheme, host and path only, because user info
 * and query strings are where people put API keys when a server takes no headers.
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}
