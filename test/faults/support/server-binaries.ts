import { execFileSync } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { RunAs } from "../../../scripts/bench/stack/managed-process";

const HOW_TO_INSTALL =
  "run `bash scripts/ensure-services.sh` (it installs PostgreSQL and Redis with apt-get when it may) or install them by hand";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Debian's versioned server directories, newest first (`/usr/lib/postgresql/15/bin`, …). */
function debianPostgresDirs(): string[] {
  try {
    return readdirSync("/usr/lib/postgresql")
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => `/usr/lib/postgresql/${v}/bin`);
  } catch {
    return [];
  }
}

/**
 * The directory holding PostgreSQL's `initdb`, `pg_ctl` and `postgres`: the one on PATH, else
 * Debian's layout (where `scripts/ensure-services.sh` installs the server). Throws a message that
 * says what is missing; the fault tests never skip.
 */
export function postgresBinDir(): string {
  const onPathDir = onPath("initdb")?.replace(/\/initdb$/, "");
  const candidates = [...(onPathDir ? [onPathDir] : []), ...debianPostgresDirs()];
  const found = candidates.find((dir) => ["initdb", "pg_ctl", "postgres"].every((b) => executable(join(dir, b))));
  if (!found)
    throw new Error(
      `The fault tests start their own PostgreSQL, but no initdb/pg_ctl/postgres was found on PATH or in /usr/lib/postgresql/*/bin: ${HOW_TO_INSTALL}.`,
    );
  return found;
}

/** `redis-server`: on PATH, else where Debian puts it. */
export function redisServerBinary(): string {
  const found = onPath("redis-server") ?? ["/usr/bin/redis-server", "/usr/sbin/redis-server"].find(executable);
  if (!found)
    throw new Error(
      `The fault tests start their own Redis, but no redis-server was found on PATH, /usr/bin or /usr/sbin: ${HOW_TO_INSTALL}.`,
    );
  return found;
}

/**
 * PostgreSQL's server refuses to run as root: as root, run it as the `postgres` OS user (which
 * the server package creates); otherwise as ourselves.
 */
export function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      "The fault tests run as root, and PostgreSQL refuses to run as root, but there is no `postgres` OS user to run it as (installing the server package creates one).",
    );
  }
}
