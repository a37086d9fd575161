import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

const COLOURS = [36, 33, 35, 32, 34, 31, 96, 93];

/**
 * Runs several long-lived commands with prefixed output, like foreman: when one exits the others
 * are stopped, and `stop()` sends SIGTERM to all and waits (SIGKILL after a grace period).
 */
export class ProcessGroup {
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;
  private width = 14;
  /** Resolves with the name of the first process that exits on its own. */
  readonly firstExit: Promise<string>;
  private reportExit!: (name: string) => void;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.firstExit = new Promise((resolve) => (this.reportExit = resolve));
  }

  start(name: string, command: string): void {
    const colour = COLOURS[this.children.size % COLOURS.length];
    this.width = Math.max(this.width, name.length);
    const child = spawn(command, { shell: true, env: this.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    this.children.set(name, child);
    const prefix = () => `\x1b[${colour}m${name.padEnd(this.width)} |\x1b[0m `;
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix()}${line}\n`));
    }
    child.on("exit", (code, signal) => {
      this.children.delete(name);
      if (!this.stopping) {
        process.stdout.write(`${prefix()}exited (${signal ?? code})\n`);
        this.reportExit(name);
      }
    });
  }

  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    const exits = [...this.children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          const kill = (signal: NodeJS.Signals) => {
            try {
              process.kill(-child.pid!, signal); // the whole group: npx and the node it starts
            } catch {
              /* already gone */
            }
          };
          kill("SIGTERM");
          setTimeout(() => kill("SIGKILL"), graceMs).unref();
        }),
    );
    await Promise.all(exits);
  }
}
