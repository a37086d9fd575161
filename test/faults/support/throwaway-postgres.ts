import { chownSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { runToCompletion, startProcess, type ManagedProcess } from "../../../scripts/bench/stack/managed-process";
import { eventually } from "../../helpers/http";
import { postgresBinDir, postgresRunAs } from "./server-binaries";

/** A PostgreSQL cluster of the test's own, which it may stop and start at will. */
export interface ThrowawayPostgres {
  port: number;
  /** Connection URL of one of its databases (trust authentication, loopback only). */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** Fast shutdown (what an operator's restart or a failover does): clients are disconnected. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

async function accepts(url: string): Promise<true | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates a cluster in `dir` with `initdb` and runs its server in the foreground on `port`, so the
 * test owns the process. Durability is traded for speed (`fsync=off`): the tests stop the server,
 * never the machine.
 */
export async function startThrowawayPostgres(dir: string, port: number): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const runAs = postgresRunAs();
  const data = join(dir, "pgdata");
  mkdirSync(data, { recursive: true, mode: 0o700 });
  if (runAs) {
    chownSync(dir, runAs.uid, runAs.gid);
    chownSync(data, runAs.uid, runAs.gid);
  }
  const log = (name: string) => join(dir, `${name}.log`);
  await runToCompletion(
    "initdb",
    [join(bin, "initdb"), "-D", data, "-U", "postgres", "-E", "UTF8", "--auth=trust", "--no-sync"],
    process.env,
    log("initdb"),
    60_000,
    runAs,
  );

  const settings = [
    "listen_addresses=127.0.0.1",
    `unix_socket_directories=${dir}`,
    "fsync=off",
    "full_page_writes=off",
    "max_connections=300",
  ];
  const command = [join(bin, "postgres"), "-D", data, "-p", String(port), ...settings.flatMap((s) => ["-c", s])];
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let server: ManagedProcess | null = null;

  const start = async () => {
    const proc = startProcess("postgres", command, process.env, log("postgres"), runAs);
    server = proc;
    await eventually(
      async () => {
        const status = proc.exitStatus();
        if (status) throw new Error(`postgres exited (${status.signal ?? `code ${status.code}`}):\n${proc.tail()}`);
        return accepts(url("postgres"));
      },
      READY_TIMEOUT_MS,
      100,
    );
  };
  const stop = async () => {
    const proc = server;
    server = null;
    // SIGINT is PostgreSQL's "fast" shutdown; SIGKILL only if it hangs.
    await proc?.kill("SIGINT");
  };
  await start();

  return {
    port,
    url,
    async createDatabase(name) {
      const client = new Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
    },
    stop,
    start,
    close: stop,
  };
}
