/** Distinct request identities remembered; the oldest is forgotten first. */
const COUNTER_LIMIT = 10_000;

/**
 * Implements `sim_error_times`: counts failures per request identity so the first N identical
 * requests fail and later ones (the client's retries) succeed.
 */
export class FailureCounter {
  private readonly failures = new Map<string, number>();

  /** Whether this request should fail now; counts the failure when it should. */
  shouldFail(key: string, times: number): boolean {
    const failed = this.failures.get(key) ?? 0;
    if (failed >= times) return false;
    if (failed === 0 && this.failures.size >= COUNTER_LIMIT) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(key, failed + 1);
    return true;
  }

  /** Forgets every count, so a test run can start from a clean state. */
  clear(): void {
    this.failures.clear();
  }
}
