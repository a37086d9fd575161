import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../stack/managed-process";

/** `.bench/` at the repository root (git-ignored): raw results and child-process logs. */
const BENCH_DIR = join(ROOT, ".bench");

/** A file-name-safe timestamp, e.g. `2025-01-31T12-00-00-000Z`, shared by one run's files. */
export function runStamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

/** Creates `.bench/` if needed and returns the path of `name` inside it. */
export function benchPath(name: string): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  return join(BENCH_DIR, name);
}

/** Writes `data` as pretty JSON to `.bench/<name>` and returns the path. */
export function writeJsonResult(name: string, data: unknown): string {
  const path = benchPath(name);
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  return path;
}
