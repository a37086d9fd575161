import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";

const ROOT = join(__dirname, "..", "..");
const run = promisify(execFile);

type LockEntry = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

/** Where Node (and npm) would find `name` from the package at `location`: its own node_modules, then each parent's. */
function resolvesIn(packages: Record<string, unknown>, location: string, name: string): boolean {
  let base = location;
  for (;;) {
    if (`${base ? `${base}/` : ""}node_modules/${name}` in packages) return true;
    if (base === "") return false;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

/**
 * `npm start`, `npm test` and `npm run test:faults` install the dependencies with
 * scripts/ensure-dependencies.sh: `npm ci` from the lock file when node_modules is missing or
 * stale, nothing otherwise, and never a rewritten package-lock.json. The script runs here against
 * a stand-in `npm` that records its calls, in a scratch copy of the project's package files.
 */
describe("installing the dependencies", () => {
  let dir: string;
  let npmLog: string;

  async function ensureDependencies(npmExitCode = 0): Promise<{ ok: boolean; npmCalls: string[] }> {
    const env = {
      ...process.env,
      PATH: `${join(dir, "bin")}:${process.env.PATH}`,
      NPM_LOG: npmLog,
      NPM_EXIT: String(npmExitCode),
    };
    const ok = await run("bash", [join(dir, "scripts", "ensure-dependencies.sh")], { cwd: dir, env }).then(
      () => true,
      () => false,
    );
    const npmCalls = (await readFile(npmLog, "utf8").catch(() => "")).split("\n").filter(Boolean);
    return { ok, npmCalls };
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "apiary-deps-"));
    npmLog = join(dir, "npm-calls.log");
    await mkdir(join(dir, "scripts"));
    await mkdir(join(dir, "bin"));
    for (const file of ["package.json", "package-lock.json", "scripts/ensure-dependencies.sh"])
      await copyFile(join(ROOT, file), join(dir, file));
    // The stand-in npm: records its arguments, creates node_modules as `npm ci` would, exits as told.
    const npm = join(dir, "bin", "npm");
    await writeFile(npm, '#!/bin/sh\necho "$@" >> "$NPM_LOG"\nmkdir -p node_modules\nexit "$NPM_EXIT"\n');
    await chmod(npm, 0o755);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs npm ci when node_modules is missing, then nothing while package.json and the lock file stay the same", async () => {
    const lockBefore = await readFile(join(dir, "package-lock.json"));
    expect((await ensureDependencies()).npmCalls).to.deep.equal(["ci --no-audit --no-fund --loglevel=error"]);
    expect((await ensureDependencies()).npmCalls).to.have.length(1);
    expect(await readFile(join(dir, "package-lock.json"))).to.deep.equal(lockBefore);
  });

  it("runs npm ci again when the lock file or package.json changed, or node_modules is gone", async () => {
    await ensureDependencies();
    await writeFile(join(dir, "package-lock.json"), `${await readFile(join(dir, "package-lock.json"), "utf8")}\n`);
    expect((await ensureDependencies()).npmCalls).to.have.length(2);
    await writeFile(join(dir, "package.json"), `${await readFile(join(dir, "package.json"), "utf8")}\n`);
    expect((await ensureDependencies()).npmCalls).to.have.length(3);
    await rm(join(dir, "node_modules"), { recursive: true });
    expect((await ensureDependencies()).npmCalls).to.have.length(4);
    expect((await ensureDependencies()).npmCalls).to.have.length(4);
  });

  it("fails when npm ci fails, and tries again next time", async () => {
    expect(await ensureDependencies(1)).to.deep.include({ ok: false });
    const again = await ensureDependencies(0);
    expect(again).to.deep.include({ ok: true });
    expect(again.npmCalls).to.have.length(2);
  });

  it("is what npm start, npm test and npm run test:faults install with; none of them runs npm install", async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    for (const name of ["start", "test", "test:faults"]) {
      expect(scripts[name], name).to.match(/^bash scripts\/ensure-dependencies\.sh && /);
    }
    for (const [name, command] of Object.entries(scripts)) expect(command, name).not.to.match(/npm (install|i)\b/);
  });

  it("has a lock file entry for every dependency of every locked package, optional ones included, as npm ci requires", async () => {
    const { packages } = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const unresolved = Object.entries(packages).flatMap(([location, entry]) =>
      Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })
        .filter((name) => !resolvesIn(packages, location, name))
        .map((name) => `${location || "(root)"} → ${name}`),
    );
    expect(unresolved).to.deep.equal([]);
  });
});
