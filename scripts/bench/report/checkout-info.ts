import { execFileSync } from "node:child_process";
import { ROOT } from "../stack/managed-process";

/** The code a scenario ran: the checkout's commit, and whether it had uncommitted changes (null outside git). */
export function checkoutInfo(): { commit: string; dirty: boolean } | null {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    return { commit: git("rev-parse", "--short=12", "HEAD"), dirty: git("status", "--porcelain") !== "" };
  } catch {
    return null;
  }
}
