import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { config } from "../../shared/config";
import { closeDataSource, getDataSource } from "../../shared/db/data-source";
import { hasConfiguredProvider } from "../../shared/llm/providers";
import { migrate } from "../migrate";
import { ensureDevApiKey } from "./dev-api-key";
import { devSessionSecret, devSignInLink } from "./dev-sign-in";
import { localSecret } from "./local-secret";
import { ProcessGroup } from "./process-group";
import { fromSource, readProcfile } from "./procfile";

const ROOT = join(__dirname, "..", "..");
const SIMULATOR_PORT = 8090;
/** The default `SOLANA_RPC_URL`: when it is left as is, `npm start` runs the local network there. */
const LOCALNET_RPC_URL = "http://127.0.0.1:8899";

function say(line: string): void {
  process.stdout.write(`\x1b[1m[start]\x1b[0m ${line}\n`);
}

async function waitForHealth(url: string, deadlineMs: number, group: ProcessGroup): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let exited: string | null = null;
  void group.firstExit.then((name) => (exited = name));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process '${exited}' exited during start-up (see its output above)`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${deadlineMs / 1000} s`);
}

/**
 * `npm start`: Postgres and Redis, migrations, the development key, every Procfile process type
 * (plus the LLM simulator when no provider key is configured, and the Solana localnet when
 * `SOLANA_RPC_URL` is left at its local default), then the URLs and a ready curl.
 */
/** Where a new self-hoster makes their account, as the sign-up mode allows (docs/accounts.md). */
function signUpLine(mode: string, platform: string): string {
  if (mode === "open")
    return `  Sign up         ${platform}/platform/sign-up   (your own account, for the pages and API keys)`;
  return `  Accounts        sign-up is ${mode}: make one with \`npm run accounts -- create-admin --email <you>\``;
}

async function main(): Promise<void> {
  say("making sure PostgreSQL and Redis run…");
  const dbName = new URL(config.databaseUrl).pathname.slice(1) || "apiary";
  execFileSync("bash", [join(ROOT, "scripts/ensure-services.sh"), "--database", dbName], { stdio: "inherit" });

  const applied = await migrate();
  say(applied.length ? `migrations applied: ${applied.join(", ")}` : "database schema up to date");
  const devKey = await ensureDevApiKey(await getDataSource(), join(ROOT, ".data/dev-api-key"));
  const platform = `http://localhost:${config.http.platformPort}`;
  // The pages take session tokens only: without an identity backend, npm start signs one itself.
  const session = config.platform.session;
  // Only a secret npm start made itself signs the link: one the operator configured is a real
  // identity backend's, and a printed token signed with it would be a real session.
  const sessionSecret =
    config.env === "production" || session.jwksUrl || session.jwtSecret
      ? null
      : await devSessionSecret(join(ROOT, ".data/dev-session-secret"));
  const signInLink = sessionSecret
    ? await devSignInLink(await getDataSource(), { ...session, jwtSecret: sessionSecret }, platform)
    : null;
  await closeDataSource();

  // Bull Board has no default password: without one, npm start makes one for this checkout (a
  // deployment without one keeps its board closed). Its actions stay on, as a developer retrying
  // their own runs expects, unless BULL_BOARD_WRITES says otherwise.
  const adminPassword =
    config.admin.password ??
    (config.env === "production" ? undefined : await localSecret(join(ROOT, ".data/admin-password"), 18));
  const boardWrites = config.admin.writesChosen ? String(config.admin.writes) : "true";

  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "1", BULL_BOARD_WRITES: boardWrites };
  if (sessionSecret) env.SESSION_JWT_SECRET = sessionSecret;
  if (adminPassword) env.ADMIN_PASSWORD = adminPassword;
  // The processes write to a pipe, not the terminal: ask for readable lines when a person watches.
  if (process.stdout.isTTY) env.LOG_FORMAT ??= "pretty";
  const group = new ProcessGroup(env);
  const useSimulator = !hasConfiguredProvider();
  if (useSimulator) {
    env.LLM_BASE_URL = `http://127.0.0.1:${SIMULATOR_PORT}/v1`;
    env.LLM_API_KEY = "simulator";
    // Its `sim_*` controls become options a request may give (refused where a real provider answers).
    env.LLM_SIMULATOR = "true";
    // Simulated scores would be noise: new prompts are scored by the rules alone (docs/marketplace.md).
    env.CONTENT_SCORING_MODEL ??= "none";
    group.start("llm-simulator", `npx tsx scripts/llm-simulator/main.ts --port ${SIMULATOR_PORT}`);
  }
  const useLocalnet = config.solana.rpcUrl.replace(/\/$/, "") === LOCALNET_RPC_URL;
  if (useLocalnet)
    group.start("solana-localnet", `npx tsx scripts/solana-localnet/main.ts --port ${new URL(LOCALNET_RPC_URL).port}`);
  // The Procfile runs compiled JavaScript; development runs the same entry points from source.
  for (const proc of readProcfile(join(ROOT, "Procfile"))) {
    if (proc.name !== "release") group.start(proc.name, fromSource(proc.command)); // release already ran above
  }

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("stopping every process…");
    await group.stop();
    say("stopped.");
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  void group.firstExit.then(() => stop(1));

  const api = `http://localhost:${config.http.port}`;
  await waitForHealth(`${api}/health`, 60_000, group);
  const curl = `curl -s ${api}/v1/agent/completions -H 'x-api-key: ${devKey}' -H 'Content-Type: application/json' -d '{"agent_config":{"agent_name":"Researcher","system_prompt":"You are a concise researcher.","model_name":"gpt-4.1"},"task":"Name three uses of honey."}'`;
  process.stdout.write(
    [
      "",
      "\x1b[1mApiary is running.\x1b[0m",
      `  Execution API   ${api}   (health: ${api}/health)`,
      `  Platform        ${platform}`,
      signUpLine(config.platform.accounts.signUpMode, platform),
      signInLink
        ? `  Sign in         ${signInLink}\n                  (the development user, for the API-keys page; valid for a few hours, restart for a new one)`
        : "  Sign in         through your identity backend (SESSION_JWKS_URL)",
      adminPassword
        ? `  Bull Board      ${api}/admin/queues   (user '${config.admin.user}', password '${adminPassword}'; ${boardWrites === "true" ? "actions on" : "read-only"})`
        : "  Bull Board      closed (set ADMIN_PASSWORD)",
      useSimulator
        ? `  LLM             local simulator at http://127.0.0.1:${SIMULATOR_PORT}/v1 (no provider key set; answers are marked simulated)`
        : "  LLM             real providers (keys from the environment)",
      useLocalnet
        ? `  Solana          local network at ${LOCALNET_RPC_URL} (websocket on the next port; airdrops with requestAirdrop)`
        : `  Solana          ${config.solana.rpcUrl}`,
      `  Dev API key     ${devKey}`,
      "",
      "Try a single-agent completion:",
      `  ${curl}`,
      "",
      "Ctrl-C stops everything.",
      "",
    ].join("\n"),
  );
}

main().catch((err) => {
  process.stderr.write(`[start] ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
});
