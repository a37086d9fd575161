import { config, type Config } from "../../../shared/config";
import { LaunchFailedError } from "../launch-errors";
import type { TokenLauncher } from "./launcher";
import { MeteoraDbcLauncher } from "./meteora-dbc";
import { Token2022Launcher } from "./token-2022";

type SolanaSettings = Config["solana"];

/** Launcher name (`TOKEN_LAUNCHER`) → how to build it from the Solana settings. Spelled out, like the job handlers. */
const launchers: Record<TokenLauncher["name"], (solana: SolanaSettings) => TokenLauncher> = {
  "token-2022": () => new Token2022Launcher(),
  "meteora-dbc": (solana) => new MeteoraDbcLauncher(solana),
};

/**
 * The launcher of a name (`config.solana.launcher` by default), built from the given settings. An
 * unknown name fails the launch (a deploy mistake; the configuration refuses it at start anyway).
 */
export function launcherFor(name: string, solana: SolanaSettings = config.solana): TokenLauncher {
  const build = Object.hasOwn(launchers, name) ? launchers[name as TokenLauncher["name"]] : undefined;
  if (!build) throw new LaunchFailedError(`Unknown token launcher "${name}"`);
  return build(solana);
}
