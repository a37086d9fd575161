import { config, type Config } from "../../../shared/config";
import type { TokenLauncher } from "./launcher";
import { MeteoraDbcLauncher } from "./meteora-dbc";

type SolanaSettings = Config["solana"];

/** Launcher name (`TOKEN_LAUNCHER`) → how to build it from the Solana settings. */
const launchers: Partial<Record<TokenLauncher["name"], (solana: SolanaSettings) => TokenLauncher>> = {
  "meteora-dbc": (solana) => new MeteoraDbcLauncher(solana),
};

/** The launcher named by `config.solana.launcher` (or another name), built from the given settings. */
export function launcherFor(name: string, solana: SolanaSettings = config.solana): TokenLauncher {
  const build = launchers[name as TokenLauncher["name"]];
  if (!build) throw new Error(`Unknown token launcher "${name}"`);
  return build(solana);
}
