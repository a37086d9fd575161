import type { ProcessType } from "../../start/procfile";

/** One Procfile process type as the benchmark starts it: no shell, plain argv. */
interface DeployedCommand {
  name: string;
  argv: string[];
}

/** What the Procfile of a checkout runs: the `release` step and the long-running processes. */
export interface DeployedProcesses {
  release: DeployedCommand;
  processes: DeployedCommand[];
}

const METRICS_PORT_FLAG = "--metrics-port";

/**
 * Splits a Procfile command into argv (the Procfile's commands are plain words, no quoting) and
 * runs `node` as the benchmark's own Node binary, so both stacks use the same runtime whatever
 * `node` is first on the PATH.
 */
function procfileArgv(command: string, nodeBinary: string): string[] {
  const words = command.trim().split(/\s+/);
  if (words[0] !== "node") throw new Error(`Procfile command does not start with node: '${command}'`);
  return [nodeBinary, ...words.slice(1)];
}

/**
 * `argv` with its `--metrics-port N` (or `--metrics-port=N`) replaced by `port`: the Procfile
 * gives each worker a fixed port, and two stacks side by side on one machine cannot both bind it.
 * This is the one change to a Procfile command the benchmark makes; argv without the flag is
 * returned unchanged.
 */
export function withMetricsPort(argv: string[], port: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === METRICS_PORT_FLAG) {
      out.push(arg, String(port));
      i++;
    } else if (arg.startsWith(`${METRICS_PORT_FLAG}=`)) {
      out.push(`${METRICS_PORT_FLAG}=${port}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

/**
 * The release step and the processes of a parsed Procfile, in its order, each on its own metrics
 * port from `metricsPorts` (taken in order by the commands that have the flag). Throws when the
 * Procfile has no `release` or no `web`: a stack without them is not what users deploy.
 */
export function deployedProcesses(types: ProcessType[], nodeBinary: string, metricsPorts: number[]): DeployedProcesses {
  const release = types.find((t) => t.name === "release");
  if (!release) throw new Error("the Procfile has no release step");
  if (!types.some((t) => t.name === "web")) throw new Error("the Procfile has no web process");
  const ports = [...metricsPorts];
  const processes = types
    .filter((t) => t !== release)
    .map((t) => {
      const argv = procfileArgv(t.command, nodeBinary);
      if (!argv.some((a) => a === METRICS_PORT_FLAG || a.startsWith(`${METRICS_PORT_FLAG}=`)))
        return { name: t.name, argv };
      const port = ports.shift();
      if (port === undefined) throw new Error(`no free metrics port left for ${t.name}`);
      return { name: t.name, argv: withMetricsPort(argv, port) };
    });
  return { release: { name: "release", argv: procfileArgv(release.command, nodeBinary) }, processes };
}

/** How many of the Procfile's processes take a metrics port (how many free ports to find). */
export function metricsPortCount(types: ProcessType[]): number {
  return types.filter((t) => t.command.includes(METRICS_PORT_FLAG)).length;
}
