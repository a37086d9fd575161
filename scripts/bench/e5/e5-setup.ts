import type { HttpTarget } from "../client/http-target";
import { preflight } from "../client/preflight";
import { setUpStack, type StackSetup } from "../stack/stack-setup";
import type { TeardownStep } from "../stack/teardown";
import { directTarget, serviceTarget } from "../targets/agent-completion-targets";

/** Everything the agent completion benchmark measures against, ready and checked. */
export interface AgentSetup extends StackSetup {
  direct: HttpTarget;
  service: HttpTarget;
}

/**
 * Prepares an isolated environment (own database, Redis db, queue prefix and ports), starts the
 * simulator, web and worker, and checks both targets answer correctly once.
 */
export async function setUpAgentStack(stamp: string, onTeardown: (step: TeardownStep) => void): Promise<AgentSetup> {
  const setup = await setUpStack("e5", stamp, onTeardown);
  const { stack, apiKey, stepsMs, say } = setup;
  const direct = directTarget(stack.simulatorUrl);
  const service = serviceTarget(stack.apiUrl, apiKey);
  say("checking both targets answer…");
  const started = performance.now();
  await preflight(direct, stack);
  await preflight(service, stack);
  stepsMs.preflight = Math.round(performance.now() - started);
  return { ...setup, direct, service };
}
