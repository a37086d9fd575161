import { LaunchFailedError } from "../launch-errors";
import type { TokenLauncher } from "./launcher";
import { Token2022Launcher } from "./token-2022";

/** Launcher name (`TOKEN_LAUNCHER`) → how to make it. Spelled out, like the job handlers. */
const launchers: Partial<Record<TokenLauncher["name"], () => TokenLauncher>> = {
  "token-2022": () => new Token2022Launcher(),
};

/** The launcher of a name; a launch fails when this build does not have it (a deploy mistake). */
export function launcherNamed(name: TokenLauncher["name"]): TokenLauncher {
  const make = launchers[name];
  if (!make) throw new LaunchFailedError(`The token launcher '${name}' is not available`);
  return make();
}
