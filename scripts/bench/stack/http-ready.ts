/**
 * Polls `url` until it answers 200, every 100 ms until `timeoutMs`. `failFast` is asked before each
 * attempt and may return a reason to give up early (e.g. the server process already exited).
 */
export async function waitForHttpOk(
  url: string,
  timeoutMs: number,
  failFast: () => string | null = () => null,
): Promise<number> {
  const started = performance.now();
  let last = "no answer";
  while (performance.now() - started < timeoutMs) {
    const reason = failFast();
    if (reason) throw new Error(`gave up waiting for ${url}: ${reason}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}
