/**
 * The part of autocannon 9's API the benchmarks use (the package ships no types and
 * `@types/autocannon` is not a dependency). Field meanings follow its README.
 */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      title?: string;
    }
    /** Percentile summary of an HDR histogram; latency values are whole milliseconds. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }
    interface Result {
      title?: string;
      url: string;
      connections: number;
      /** Seconds actually run. */
      duration: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      "1xx": number;
      "2xx": number;
      "3xx": number;
      "4xx": number;
      "5xx": number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      /** Per-second samples of completed requests; `total` is all of them. */
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }
  }
  /** Without a callback it returns a promise of the result. */
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
