import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { startTreeCpuAccount } from "../../scripts/bench/probes/cpu-account";
import { hostPid, parseIdentity, type ProcIdentity } from "../../scripts/bench/probes/proc-accounting";
import { readStatTimes, treeOf } from "../../scripts/bench/probes/proc-reader";
import { watchProcesses } from "../../scripts/bench/probes/process-watch";

/** A Node process that says its pid, burns `BURN_MS` of CPU when it reads a line, then waits for stdin to close. */
const WORKER = `
const rl = require("node:readline").createInterface({ input: process.stdin });
console.log("ready " + process.pid);
rl.once("line", () => {
  const start = process.cpuUsage();
  for (;;) { const u = process.cpuUsage(start); if (u.user + u.system >= ${400_000}) break; }
  console.log("burned");
});
rl.on("close", () => process.exit(0));
`;

/**
 * A server started through wrappers: `sh` runs `sh`, which runs the Node worker, so the pid the
 * benchmark holds (the outer shell's) does no work itself. The trailing `:` keeps each shell from
 * exec'ing its command in place, so all three processes stay.
 */
function wrappedWorker(): { root: ChildProcess; lines: AsyncIterableIterator<string> } {
  const root = spawn("sh", ["-c", `sh -c '"$0" -e "$WORKER_JS"; :' "$0"; :`, process.execPath], {
    env: { ...process.env, WORKER_JS: WORKER },
    stdio: ["pipe", "pipe", "inherit"],
  });
  return { root, lines: createInterface({ input: root.stdout! })[Symbol.asyncIterator]() };
}

async function nextLine(lines: AsyncIterableIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error("the worker ended early");
  return value;
}

describe("benchmark process accounting", () => {
  it("reads a process's name and its pid in each pid namespace from /proc/<pid>/status", () => {
    expect(parseIdentity("Name:\tredis-server\nUmask:\t0022\nNSpid:\t48213\t7\n")).to.deep.equal({
      name: "redis-server",
      nsPids: [48213, 7],
    });
    expect(parseIdentity("Name:\tpostgres\nNSpid:\t900\n")).to.deep.equal({ name: "postgres", nsPids: [900] });
    expect(parseIdentity("Name:\tx\n")).to.equal(null);
  });

  it("finds the process a server reported by its pid: here as is, in a container by its innermost pid", () => {
    const procs = new Map<number, ProcIdentity>([
      [7, { name: "bash", nsPids: [7] }],
      [900, { name: "postgres", nsPids: [900] }],
      [48213, { name: "redis-server", nsPids: [48213, 7] }],
      [48300, { name: "postgres", nsPids: [48300, 57] }],
    ]);
    expect(hostPid(900, "postgres", procs), "a server on this machine").to.equal(900);
    // Redis in a container reports 7; here 7 is a shell, and the container's redis is 48213.
    expect(hostPid(7, "redis-server", procs), "a server in a container").to.equal(48213);
    expect(hostPid(57, "postgres", procs)).to.equal(48300);
    expect(hostPid(58, "postgres", procs), "no such process").to.equal(null);
    procs.set(57, { name: "postgres", nsPids: [57] });
    expect(hostPid(57, "postgres", procs), "two fit: not guessed").to.equal(null);
  });

  it("counts the CPU and memory of a wrapped server's grandchild, which its own pid does not show", async function () {
    this.timeout(20_000);
    const { root, lines } = wrappedWorker();
    try {
      const grandchild = Number(/^ready (\d+)$/.exec(await nextLine(lines))?.[1]);
      const tree = treeOf(root.pid!);
      expect(tree).to.have.length(3);
      expect(tree[0]).to.equal(root.pid);
      expect(tree[2]).to.equal(grandchild);
      expect(readStatTimes(readStatTimes(grandchild)!.ppid)!.ppid, "the worker is the root's grandchild").to.equal(
        root.pid,
      );

      const rootTicks = readStatTimes(root.pid!)!.cpuTicks;
      const endAccount = startTreeCpuAccount({ server: root.pid! });
      const watch = watchProcesses([{ name: "server", pid: root.pid }], 50);
      // The bench client starts the processes it measures: a tree stops where another watched one starts.
      const split = watchProcesses(
        [
          { name: "wrapper", pid: root.pid },
          { name: "worker", pid: grandchild },
        ],
        50,
      );
      const endSplitAccount = startTreeCpuAccount({ wrapper: root.pid!, worker: grandchild });
      root.stdin!.write("go\n");
      expect(await nextLine(lines)).to.equal("burned");
      const [usage] = watch.stop();
      const cpu = endAccount();
      const [wrapperUsage, workerUsage] = split.stop();
      const splitCpu = endSplitAccount();
      expect(workerUsage.cpuS, "the worker's own").to.be.within(0.35, 2);
      expect(wrapperUsage.cpuS, "the wrapper's tree without the worker").to.be.below(0.1);
      expect(splitCpu.worker).to.be.within(0.35, 2);
      expect(splitCpu.wrapper ?? 0).to.be.below(0.1);

      // 400 ms of CPU were burned in the grandchild; sampling starts and ends around it.
      expect(cpu.server, "the account's CPU seconds").to.be.within(0.35, 2);
      expect(usage.cpuS, "the watch's CPU seconds").to.be.within(0.35, 2);
      // The Node grandchild's resident set (tens of MiB) is in the sum; a shell alone has a few MiB.
      expect(usage.peakRssMiB).to.be.above(20);
      expect(readStatTimes(root.pid!)!.cpuTicks - rootTicks, "the wrapper itself did (almost) nothing").to.be.below(5);
    } finally {
      root.stdin!.end();
      if (root.exitCode === null) await once(root, "exit");
    }
  });
});
