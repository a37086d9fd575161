import type { HttpTarget } from "../client/http-target";
import { preflight } from "../client/preflight";
import type { BenchPorts } from "../stack/bench-env";
import type { ServiceStack } from "../stack/service-stack";
import { setUpStack } from "../stack/stack-setup";
import type { TeardownStep } from "../stack/teardown";
import { directTarget, serviceTarget } from "../targets/agent-completion-targets";

/** Everything E5 measures against, ready and checked. */
export interface E5Setup {
  env: NodeJS.ProcessEnv;
  ports: BenchPorts;
  stack: ServiceStack;
  direct: HttpTarget;
  service: HttpTarget;
  /** Process name → log file. */
  logs: Record<string, string>;
  /** How long each step took, in ms (a slow start is worth knowing about). */
  stepsMs: Record<string, number>;
  /** Writes a progress line to stderr, prefixed with `[e5]`. */
  say(line: string): void;
}

/**
 * Prepares an isolated environment (own database, Redis db, queue prefix and ports), starts the
 * simulator, web and worker, and checks both targets answer correctly once.
 */
export async function setUpE5(stamp: string, onTeardown: (step: TeardownStep) => void): Promise<E5Setup> {
  const { env, ports, stack, apiKey, logs, stepsMs, say } = await setUpStack("e5", stamp, onTeardown);
  const direct = directTarget(stack.simulatorUrl);
  const service = serviceTarget(stack.apiUrl, apiKey);
  say("checking both targets answer…");
  const started = performance.now();
  await preflight(direct, stack);
  await preflight(service, stack);
  stepsMs.preflight = Math.round(performance.now() - started);
  return { env, ports, stack, direct, service, logs, stepsMs, say };
}
