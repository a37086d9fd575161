import { loadavg } from "node:os";
import { preflight } from "../client/preflight";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { watchProcesses } from "../probes/process-watch";
import { cpuHeaderLine } from "../report/cpu-cells";
import { benchPath, runStamp, writeJsonResult } from "../report/results-file";
import type { ScenarioRun } from "../scenario";
import { ensureServices } from "../stack/data-stores";
import type { ServiceStack } from "../stack/service-stack";
import { startSimulatorProcess } from "../stack/simulator-process";
import { withTeardown } from "../stack/teardown";
import { serviceTarget } from "../targets/agent-completion-targets";
import { prepareCheckouts } from "./checkouts";
import { SERVICE_ROLES } from "../probes/cpu-account";
import { measureDeployedRounds, nodeProcesses, soak, warmUpStacks, type MemoryResult } from "./deployed-measure";
import { parseDeployedOptions } from "./deployed-options";
import { renderCommitFloor, renderCpuTable, renderFigures, renderMemoryTable, renderWindows } from "./deployed-report";
import { startDeployedStack, type DeployedStack } from "./deployed-stack";
import { measureGrowth, renderGrowth } from "./growth";
import { summarizeStack } from "./deployed-summary";

/** Enough of a `ServiceStack` for the shared pre-flight check: its processes and a liveness check. */
function asServiceStack(stack: DeployedStack, simulatorUrl: string): ServiceStack {
  return {
    simulatorUrl,
    apiUrl: stack.apiUrl,
    apiUrls: [stack.apiUrl],
    processes: stack.processes,
    assertAlive: () => stack.assertAlive(),
    stopProcess: () => Promise.reject(new Error("not used")),
    killProcess: () => Promise.reject(new Error("not used")),
  };
}

/**
 * "As deployed": this checkout and a baseline ref, each built and started exactly as
 * its Procfile says, with default settings, measured in alternation against one LLM simulator:
 * Agent completion latency and throughput, CPU per run of every process (Postgres and Redis included) for an agent completion
 * and a 3-agent ConcurrentWorkflow, and the RSS of every Node process (with `--minutes N`, over a
 * soak; with `--growth`, how this checkout's CPU per request grows with agents, loops and batch size).
 * Prints the tables, writes `.bench/deployed-<stamp>.json`, exits 1 if a request failed.
 */
export const run: ScenarioRun = async (argv) => {
  const opts = parseDeployedOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  const say = (line: string) => process.stderr.write(`[deployed] ${line}\n`);
  return withTeardown(async (onTeardown) => {
    await ensureServices("apiary_bench_current", process.env, benchPath(`deployed-${stamp}-ensure-services.log`));
    const checkouts = await prepareCheckouts(opts.baseline, stamp, say, onTeardown);
    const simulatorUrl = await startSimulatorProcess(benchPath(`deployed-${stamp}-llm-simulator.log`), onTeardown);
    const stacks: DeployedStack[] = [];
    for (const c of checkouts)
      stacks.push(await startDeployedStack(c, simulatorUrl, stamp, say, onTeardown, opts.profile));
    for (const s of stacks) await preflight(serviceTarget(s.apiUrl, s.apiKey), asServiceStack(s, simulatorUrl));

    await warmUpStacks(stacks, opts, say);
    // A run's completion waits for one durable commit: timed before and after the rounds, it is the
    // floor under the added latency at one client that no change to the service removes.
    const commitsBefore = await stacks[0].commitLatency();
    const endCpu = startCpuWindow();
    const roundsRss = watchProcesses(nodeProcesses(stacks), 250);
    const rounds = await measureDeployedRounds(stacks, simulatorUrl, opts, say);
    const memory: MemoryResult = { rounds: roundsRss.stop(), soak: null };
    const cpu = endCpu();
    const commitsAfter = await stacks[0].commitLatency();
    memory.soak = await soak(stacks, opts, say);
    const growth = opts.growth ? await measureGrowth(stacks[0], opts.durationS, say) : null;
    const loadAfter = loadavg()[0];

    const [cur, base] = stacks.map((s) => summarizeStack(rounds, s.checkout.label));
    const failed = cur.failures + base.failures > 0;
    const lines = [
      `"As deployed" — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
      ...checkouts.map((c) => c.describe),
      `each built with npm run build and started as its Procfile says (release, then every process, node dist/…), ` +
        `NODE_ENV=production, default settings; deviations: each worker's --metrics-port is a free port (two stacks on one machine), ` +
        `and the bench key's per-key rate limits and the account's daily ceilings are raised out of reach (the limiter still runs)`,
      `${opts.rounds} round(s) x ${opts.durationS} s per figure per stack, stacks alternating (first one flips every round), medians over rounds` +
        `${opts.quick ? " (--quick: smoke test, not a result)" : ""}`,
      `load average (1 min): ${machine.loadAvg1m.toFixed(2)} before set-up, ${loadAfter.toFixed(2)} at the end, on ${machine.cores} cores`,
      cpuHeaderLine(
        cpu,
        rounds.flatMap((r) => Object.values(r.stacks).flatMap((s) => [s.agent.window.cpu, s.swarm.window.cpu])),
      ),
      "",
      renderFigures(cur, base, opts.swarmClients),
      renderCommitFloor(commitsBefore, commitsAfter),
      "",
      renderCpuTable("agent completion", cur.cpuPerAgentRun, base.cpuPerAgentRun),
      "",
      renderCpuTable("3-agent ConcurrentWorkflow", cur.cpuPerSwarm, base.cpuPerSwarm),
      "",
      `counted: each Node process of the stack; ${SERVICE_ROLES[0]} = the stack's own database's connections (and its autovacuum workers); ` +
        `${SERVICE_ROLES[1]} = postmaster, checkpointer, walwriter, background writer, launchers (shared, counted in whichever stack's window they ran); ` +
        `${SERVICE_ROLES[2]} = redis-server (shared likewise). From /proc/<pid>/stat utime+stime over each window (load + queue drain) / runs that succeeded in it.`,
      "",
      renderMemoryTable(memory, [stacks[0].checkout.label, stacks[1].checkout.label]),
      "",
      "windows (load average and steal at each):",
      renderWindows(rounds),
      ...(growth
        ? [
            "",
            `how CPU per request grows (${stacks[0].checkout.label} only, closed loop, simulator answering at once):`,
            renderGrowth(growth),
          ]
        : []),
    ];
    if (failed) lines.push("", "NOT A VALID RESULT: some measured requests failed; see the raw results and the logs.");
    const path = writeJsonResult(`deployed-${stamp}.json`, {
      scenario: "deployed",
      machine,
      loadAvg1mAfter: loadAfter,
      cpu,
      options: opts,
      checkouts,
      environments: Object.fromEntries(stacks.map((s) => [s.checkout.label, s.envShown])),
      summary: { current: cur, baseline: base },
      rounds,
      memory,
      growth,
      durableCommits: { before: commitsBefore, after: commitsAfter },
      failed,
    });
    lines.push("", `raw results: ${path}`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return failed ? 1 : 0;
  });
};
