import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchPath } from "../report/results-file";
import { runToCompletion } from "../stack/managed-process";
import { GRAPHS, LANGGRAPH_JSON, LIBRARY_SERVER, PROXY_SERVER } from "./peer-sources";

/**
 * Each throwaway folder under `.bench/peers/` (git-ignored): the exact npm versions it installs and
 * the files it gets. Pinned so two runs compare the same code; raise them on purpose, in one commit.
 */
export const PEER_FOLDERS = {
  proxy: { packages: ["koa@3.3.0", "openai@6.49.0"], files: { "proxy-server.mjs": PROXY_SERVER } },
  portkey: { packages: ["@portkey-ai/gateway@1.15.2"], files: {} },
  langgraph: {
    packages: [
      "@langchain/langgraph@1.7.3",
      "@langchain/openai@1.6.0",
      "@langchain/core@1.4.0",
      "@langchain/langgraph-cli@1.5.1",
    ],
    files: { "graphs.mjs": GRAPHS, "library-server.mjs": LIBRARY_SERVER, "langgraph.json": LANGGRAPH_JSON },
  },
} as const satisfies Record<string, { packages: readonly string[]; files: Record<string, string> }>;

export type PeerFolder = keyof typeof PEER_FOLDERS;

/**
 * Writes every folder's package.json and files and runs `npm install --no-save` of its pinned
 * versions there, never touching the project's package.json or lock. npm skips what is already
 * installed, so a second run costs seconds. Returns folder name → absolute path.
 */
export async function installPeers(stamp: string, say: (line: string) => void): Promise<Record<PeerFolder, string>> {
  const dirs = {} as Record<PeerFolder, string>;
  for (const [name, spec] of Object.entries(PEER_FOLDERS) as [PeerFolder, (typeof PEER_FOLDERS)[PeerFolder]][]) {
    const dir = join(benchPath("peers"), name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `peer-${name}`, private: true })}\n`);
    for (const [file, text] of Object.entries(spec.files)) writeFileSync(join(dir, file), text);
    say(`npm install --no-save ${spec.packages.join(" ")} in ${dir}`);
    await runToCompletion(
      `npm-install-${name}`,
      ["npm", "install", "--no-save", "--no-audit", "--no-fund", ...spec.packages],
      process.env,
      benchPath(`peers-${stamp}-install-${name}.log`),
      600_000,
      undefined,
      dir,
    );
    dirs[name] = dir;
  }
  return dirs;
}
