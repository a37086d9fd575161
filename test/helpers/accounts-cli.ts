import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** What one run of the operator's account CLI printed, and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run accounts -- <args>` as its own process against the test database; stdin is written and closed. */
export function accountsCli(args: string[], stdin = ""): Promise<CliRun> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/accounts.ts"), ...args], {
    cwd: ROOT,
    env: process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}
