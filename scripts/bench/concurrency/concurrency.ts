import { config } from "../../../shared/config";
import { preflight } from "../client/preflight";
import { machineInfo } from "../probes/machine-info";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { standAlone, type ScenarioMeasure } from "../scenario";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { workersFor } from "../stack/worker-specs";
import { swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { measureBurst, type ConcurrencyContext } from "./concurrency-measure";
import { parseConcurrencyOptions } from "./concurrency-options";
import { concurrencyHeadline, renderConcurrencyTable, summarizeConcurrency } from "./concurrency-report";

// Enough requests to get every code path of web and workers compiled before the burst.
const WARMUP_REQUESTS = 50;

/**
 * 2,000 simultaneous swarm completion requests (a 3-agent ConcurrentWorkflow, 1 s per LLM call): do all succeed,
 * how long until the last answer against the ideal (one call's latency: every request as fast as
 * if alone), and how much memory each process (web, each swarm worker, simulator) peaks at.
 *
 * Every process runs with the production defaults (a swarm worker holds up to
 * `WORKER_CONCURRENCY_SWARM` = 2,000 jobs, its LLM calls capped by `LLM_MAX_IN_FLIGHT`), so a limit
 * hit here is one a deployment would hit too.
 */
export const measure: ScenarioMeasure = async (argv) => {
  const opts = parseConcurrencyOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("concurrency", stamp, onTeardown, {
      workers: workersFor("swarm", opts.workers),
      profile: opts.profile,
    });
    const { stack, say } = setup;
    const queue = setup.watchQueue("swarm");
    const ctx: ConcurrencyContext = {
      target: swarmServiceTarget(stack.apiUrl, setup.apiKey, opts.latencyMs),
      simulatorUrl: stack.simulatorUrl,
      latencyMs: opts.latencyMs,
      queue,
      processes: stack.processes,
      assertAlive: () => stack.assertAlive(),
    };
    say("checking the swarm endpoint answers…");
    await preflight(ctx.target, stack);
    const warmupRequests = Math.min(WARMUP_REQUESTS, opts.requests);
    say(`warming up: ${warmupRequests} simultaneous requests`);
    const warmup = await measureBurst(ctx, warmupRequests, "warm-up");
    say(
      `${opts.requests} simultaneous requests, ${opts.latencyMs} ms per LLM call, ${opts.workers} swarm worker(s) at the default concurrency (${config.queue.concurrency.swarm}) and LLM cap`,
    );
    const result = await measureBurst(ctx, opts.requests, "burst");
    const summary = summarizeConcurrency(result, opts.latencyMs);
    const failed = summary.failed > 0;

    const rawFile = finishScenario(setup, {
      scenario: "concurrency",
      stamp,
      machine,
      options: opts,
      lines: [renderConcurrencyTable(summary, result, machine, opts.latencyMs, opts.quick)],
      problems: [...warmup.burst.problems.map((p) => `warm-up: ${p}`), ...result.burst.problems],
      raw: { workerConcurrencySwarm: config.queue.concurrency.swarm, summary, result, warmup },
      failed,
    });
    return { code: failed ? 1 : 0, headline: concurrencyHeadline(summary, result), rawFile };
  });
};

/** `npm run bench -- concurrency`. */
export const run = standAlone(measure);
