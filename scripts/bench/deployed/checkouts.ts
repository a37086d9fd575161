import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { benchPath } from "../report/results-file";
import { UsageError } from "../scenario";
import { ROOT, runToCompletion } from "../stack/managed-process";
import type { TeardownStep } from "../stack/teardown";

/** A checkout of the code, built, that a stack runs from. */
export interface Checkout {
  /** "current" or "baseline". */
  label: string;
  dir: string;
  /** The commit (the working tree's HEAD for current, which may have uncommitted changes). */
  commit: string;
  /** One line saying what it is, for the output. */
  describe: string;
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

/**
 * The baseline's ref when `--baseline` is not given: `main`, the code this branch will be merged
 * into; on `main` itself (nothing to compare with), its previous commit.
 */
export function defaultBaseline(head: string, main: string | null): string {
  return main !== null && main !== head ? "main" : "main~1";
}

function resolve(ref: string): string {
  try {
    return git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--baseline ${ref}: not a commit in this repository`);
  }
}

/**
 * Checks the baseline out with `git worktree add` into `.bench/`, with `node_modules` a symlink
 * to this checkout's when both package-lock.json files are identical (the usual case) and its own
 * `npm ci` otherwise; the worktree is removed again at teardown.
 */
async function checkOutBaseline(
  ref: string | undefined,
  say: (line: string) => void,
  logFile: string,
  onTeardown: (step: TeardownStep) => void,
): Promise<Checkout> {
  const head = resolve("HEAD");
  let main: string | null = null;
  try {
    main = resolve("main");
  } catch {
    /* no local main: the default below fails with a readable message */
  }
  const chosen = ref ?? defaultBaseline(head, main);
  const commit = resolve(chosen);
  const dir = benchPath(`deployed-baseline-${commit.slice(0, 12)}`);
  if (existsSync(dir)) {
    // Left by an interrupted run: a registered worktree, or only its folder.
    rmSync(dir, { recursive: true, force: true });
    git(["worktree", "prune"]);
  }
  say(`checking out baseline ${chosen} (${commit.slice(0, 12)}) into ${dir}`);
  git(["worktree", "add", "--detach", dir, commit]);
  onTeardown(() => void git(["worktree", "remove", "--force", dir]));
  const sameLock =
    readFileSync(join(ROOT, "package-lock.json"), "utf8") === readFileSync(join(dir, "package-lock.json"), "utf8");
  if (sameLock) {
    symlinkSync(realpathSync(join(ROOT, "node_modules")), join(dir, "node_modules"));
  } else {
    say("baseline's package-lock.json differs: npm ci in its worktree");
    await runToCompletion(
      "npm-ci",
      ["npm", "ci", "--no-audit", "--no-fund"],
      process.env,
      logFile,
      900_000,
      undefined,
      dir,
    );
  }
  const subject = git(["log", "-1", "--format=%s", commit]);
  return {
    label: "baseline",
    dir,
    commit,
    describe: `baseline ${chosen} = ${commit.slice(0, 12)} "${subject.slice(0, 70)}"${sameLock ? "" : " (own npm ci)"}`,
  };
}

export function currentCheckout(): Checkout {
  const commit = resolve("HEAD");
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  return {
    label: "current",
    dir: ROOT,
    commit,
    describe: `current  ${ROOT} at ${commit.slice(0, 12)}${dirty ? " with uncommitted changes" : ""}`,
  };
}

/** `npm run build` in a checkout: what the Procfile's `node dist/...` commands run. */
export async function build(checkout: Checkout, logFile: string): Promise<void> {
  await runToCompletion("build", ["npm", "run", "build"], process.env, logFile, 600_000, undefined, checkout.dir);
}

/** Both checkouts, each built: this one and the baseline `ref`. */
export async function prepareCheckouts(
  ref: string | undefined,
  stamp: string,
  say: (line: string) => void,
  onTeardown: (step: TeardownStep) => void,
): Promise<Checkout[]> {
  const log = (name: string) => benchPath(`deployed-${stamp}-${name}.log`);
  const current = currentCheckout();
  const baseline = await checkOutBaseline(ref, say, log("baseline-npm-ci"), onTeardown);
  for (const c of [current, baseline]) {
    say(`npm run build in ${c.label} (${c.dir})…`);
    await build(c, log(`${c.label}-build`));
  }
  return [current, baseline];
}
