import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { measureSequential } from "../client/closed-loop";
import { build, currentCheckout } from "../deployed/checkouts";
import { startDeployedStack } from "../deployed/deployed-stack";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { clearSimJournal, readSimCalls } from "../probes/sim-journal";
import { cpuHeaderLine } from "../report/cpu-cells";
import { benchPath, runStamp, writeJsonResult } from "../report/results-file";
import type { ScenarioRun } from "../scenario";
import { ensureServices } from "../stack/data-stores";
import { startSimulatorProcess } from "../stack/simulator-process";
import { withTeardown } from "../stack/teardown";
import { serviceTarget } from "../targets/agent-completion-targets";
import { swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { installPeers, PEER_FOLDERS } from "./peer-install";
import { apiarySubjects, startPeers, warmUp, type PeerSubject } from "./peer-subjects";
import { measurePeerRounds } from "./peers-measure";
import { parsePeersOptions } from "./peers-options";
import { renderPeersTable, renderPeerWindows, summarizePeer } from "./peers-report";

/** Sends one request and reads how many LLM calls it made from the simulator's journal; throws unless it succeeded. */
async function preflight(subject: PeerSubject, simulatorUrl: string): Promise<number> {
  await clearSimJournal(simulatorUrl);
  const r = await measureSequential(subject.target, Infinity, 1);
  if (r.latencyMs.count !== 1)
    throw new Error(`pre-flight of ${subject.name} (${subject.target.url}) failed: ${r.problems[0] ?? "no answer"}`);
  return (await readSimCalls(simulatorUrl)).calls;
}

/**
 * Peers: the same simulator, client and machine for a bare Koa + OpenAI SDK proxy (the
 * floor), the Portkey AI gateway, LangGraph.js as a library and as its API server (a one-call and
 * a three-parallel-calls graph each), and Apiary as deployed (an agent completion and a 3-agent ConcurrentWorkflow).
 * The peers are installed by this script into `.bench/peers/` (pinned, `npm install --no-save`).
 * Prints the table, writes `.bench/peers-<stamp>.json`, exits 1 if a measured request failed.
 */
export const run: ScenarioRun = async (argv) => {
  const opts = parsePeersOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  const say = (line: string) => process.stderr.write(`[peers] ${line}\n`);
  const log = (name: string) => benchPath(`peers-${stamp}-${name}.log`);
  return withTeardown(async (onTeardown) => {
    await ensureServices("apiary_bench_peers", process.env, log("ensure-services"));
    const dirs = await installPeers(stamp, say);
    // Its own label: its own database, Redis database and queue prefix, apart from a deployed run's.
    const checkout = { ...currentCheckout(), label: "peers" };
    say(`npm run build in ${checkout.dir}…`);
    await build(checkout, log("build"));
    const simulatorUrl = await startSimulatorProcess(log("llm-simulator"), onTeardown);
    const stack = await startDeployedStack(checkout, simulatorUrl, stamp, say, onTeardown);
    say("starting the peers");
    const subjects = [
      ...(await startPeers(dirs, simulatorUrl, log, onTeardown)),
      ...apiarySubjects(stack, {
        agent: serviceTarget(stack.apiUrl, stack.apiKey),
        swarm: swarmServiceTarget(stack.apiUrl, stack.apiKey, 0),
      }),
    ];
    const llmCalls: Record<string, number> = {};
    for (const s of subjects) llmCalls[s.name] = await preflight(s, simulatorUrl);

    await warmUp(subjects, opts.clients, opts.warmupS, say);
    const endCpu = startCpuWindow();
    const rounds = await measurePeerRounds(subjects, simulatorUrl, opts, say);
    const cpu = endCpu();
    const rows = subjects.map((s) => summarizePeer(rounds, s.name, s.does));
    const failed = rows.some((r) => r.failures > 0);
    const lines = [
      `Peers — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
      `pinned: ${Object.values(PEER_FOLDERS)
        .flatMap((f) => f.packages)
        .join(", ")}; Apiary ${checkout.describe.trim()}, started as its Procfile says with default settings`,
      `same LLM simulator (0 ms latency) and client for all: autocannon, c=${opts.clients}, keep-alive; c=1 from an hrtime loop, ` +
        `added over a direct simulator call in the same round; ${opts.rounds} round(s) x ${opts.durationS} s per figure, ` +
        `order rotated every round, medians over rounds${opts.quick ? " (--quick: smoke test, not a result)" : ""}`,
      `LLM calls per request (simulator journal, pre-flight): ${subjects.map((s) => `${s.name} ${llmCalls[s.name]}`).join(", ")}`,
      `load average (1 min): ${machine.loadAvg1m.toFixed(2)} before set-up, ${loadavg()[0].toFixed(2)} at the end, on ${machine.cores} cores`,
      cpuHeaderLine(
        cpu,
        rounds.flatMap((r) => Object.values(r.peers).map((p) => p.window.cpu)),
      ),
      "",
      renderPeersTable(rows, opts.clients),
      "",
      `CPU ms/req: /proc utime+stime of the peer's server process and its children over the c=${opts.clients} window / requests ` +
        `answered 2xx; for Apiary every Node process, its Postgres backends, the Postgres server and Redis, until its queue ` +
        `drained / runs finished. The simulator and the client are not counted for anyone. Each peer runs with its defaults ` +
        `(NODE_ENV=production, LangSmith tracing off; the LangGraph API server is \`langgraphjs dev\`, in-memory, its default jobs per worker).`,
      "",
      "windows (load average and steal at each):",
      renderPeerWindows(rounds),
    ];
    if (failed) lines.push("", "NOT A VALID RESULT: some measured requests failed; see the raw results and the logs.");
    const path = writeJsonResult(`peers-${stamp}.json`, {
      scenario: "peers",
      machine,
      cpu,
      options: opts,
      llmCalls,
      rows,
      rounds,
      failed,
    });
    const tableFile = benchPath(`peers-${stamp}.txt`);
    writeFileSync(tableFile, `${lines.join("\n")}\n`);
    lines.push("", `raw results: ${path}`, `table: ${tableFile}`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return failed ? 1 : 0;
  });
};
