/**
 * Summarises a `node --cpu-prof` profile (docs/performance.md): where a process's CPU went after it
 * started, by package (self time) and by the inclusive time of named functions.
 *
 *   npx tsx scripts/cpuprofile-summary.ts <file.cpuprofile> [function-name ...]
 *
 * Samples under the entry point's module loading are start-up and left out; idle is left out.
 * Shares, not sampled milliseconds, are what to read: on a loaded machine a sample's time delta is
 * wall time, so scale a share by the process's CPU from /proc.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const WRITES = new Set(["writev", "writeUtf8String", "writeBuffer", "writeString", "writeLatin1String"]);

/** The npm package, Node module or app folder a frame belongs to. */
function packageOf({ url, functionName }: CallFrame): string {
  const inModules = url.split("node_modules/")[1];
  if (inModules) {
    const parts = inModules.split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url) return `app:${url.replace(/^file:\/\/.*?\/dist\//, "").split("/")[0]}`;
  return WRITES.has(functionName) ? "socket writes" : functionName || "(native)";
}

function main(): void {
  const [file, ...names] = process.argv.slice(2);
  if (!file) throw new Error("usage: cpuprofile-summary.ts <file.cpuprofile> [function-name ...]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => timeOf.set(id, (timeOf.get(id) ?? 0) + profile.timeDeltas[i]));

  let startup = 0;
  let busy = 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>(names.map((n) => [n, 0]));
  const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
  for (const [id, t] of timeOf) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
    if (stack.some((f) => f.functionName === "executeUserEntryPoint")) {
      startup += t;
      continue;
    }
    busy += t;
    add(self, packageOf(frame), t);
    for (const name of names) if (stack.some((f) => f.functionName === name)) add(inclusive, name, t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
  const lines = [`start-up ${(startup / 1000).toFixed(0)} ms left out; ${(busy / 1000).toFixed(0)} ms busy after it`];
  lines.push("self time by package:");
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) lines.push(`  ${pct(t)}  ${k}`);
  if (names.length) lines.push("inclusive time of the named functions:");
  for (const [k, t] of inclusive) lines.push(`  ${pct(t)}  ${k}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

main();
