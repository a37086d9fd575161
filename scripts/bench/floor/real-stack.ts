import { currentCheckout, build } from "../deployed/checkouts";
import { startDeployedStack } from "../deployed/deployed-stack";
import { benchPath } from "../report/results-file";
import { startOwnRedis } from "../stack/redis-server";
import type { TeardownStep } from "../stack/teardown";
import type { FloorSubject } from "./floor-subject";

/**
 * This checkout as the `deployed` scenario builds and starts it (`npm run build`, the Procfile's
 * release and processes from dist/, default settings), on a Redis server of its own.
 */
export async function startRealStack(
  simulatorUrl: string,
  stamp: string,
  say: (line: string) => void,
  onTeardown: (step: TeardownStep) => void,
  profile: boolean,
): Promise<FloorSubject> {
  const checkout = currentCheckout();
  say(`npm run build in ${checkout.dir}…`);
  await build(checkout, benchPath(`floor-${stamp}-real-build.log`));
  const redis = await startOwnRedis(`floor-${stamp}-real-redis`, onTeardown);
  const stack = await startDeployedStack(checkout, simulatorUrl, `floor-${stamp}`, say, onTeardown, profile, redis.url);
  return {
    label: "real",
    describe: `real: ${checkout.describe.trim()}, as deployed`,
    apiUrl: stack.apiUrl,
    apiKey: stack.apiKey,
    pids: stack.pids,
    finishedRuns: () => stack.finishedRuns("agent"),
    async waitUntilIdle(timeoutMs) {
      await stack.queues.agent.waitUntilIdle(timeoutMs);
    },
    assertAlive: () => stack.assertAlive(),
  };
}
