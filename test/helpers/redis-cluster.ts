import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePorts } from "../../scripts/bench/stack/free-port";
import { runToCompletion, startProcess, type ManagedProcess } from "../../scripts/bench/stack/managed-process";
import { eventually } from "./http";

/** A throwaway Redis Cluster of local masters. */
export interface LocalRedisCluster {
  /** `redis://127.0.0.1:<port>` of each master, as `REDIS_CLUSTER_NODES` takes them. */
  urls: string[];
  /** One plain client per master (for reading what each node holds). */
  nodeClients(): Redis[];
  stop(): Promise<void>;
}

/**
 * Starts `size` `redis-server --cluster-enabled yes` processes (the installed server, in a temporary
 * directory, nothing persisted), joins them with `redis-cli --cluster create` into a cluster of
 * masters without replicas, and resolves once every node reports `cluster_state:ok`.
 */
export async function startLocalRedisCluster(size = 3): Promise<LocalRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), "apiary-redis-cluster-"));
  // Explicit bus ports: the default (port + 10000) can fall outside the port range.
  const ports = await freePorts(size * 2);
  const nodes: { port: number; proc: ManagedProcess }[] = [];
  const clients: Redis[] = [];
  const stop = async () => {
    for (const client of clients) client.disconnect();
    await Promise.all(nodes.map((n) => n.proc.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < size; i++) {
      const [port, busPort] = [ports[i], ports[size + i]];
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      const args = [
        "--port",
        port,
        "--cluster-port",
        busPort,
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--dir",
        nodeDir,
      ];
      const command = [
        "redis-server",
        ...args.map(String),
        "--save",
        "",
        "--appendonly",
        "no",
        "--cluster-node-timeout",
        "5000",
      ];
      nodes.push({ port, proc: startProcess(`redis-${port}`, command, process.env, join(dir, `redis-${port}.log`)) });
    }
    await Promise.all(nodes.map((n) => n.proc.waitForOutput(/Ready to accept connections/, 30_000)));
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
    await runToCompletion(
      "redis-cli",
      ["redis-cli", "--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"],
      process.env,
      join(dir, "create.log"),
      60_000,
    );
    clients.push(...nodes.map((n) => new Redis(n.port, "127.0.0.1", { maxRetriesPerRequest: 1 })));
    await eventually(
      async () =>
        (await Promise.all(clients.map((c) => c.cluster("INFO")))).every((info) =>
          String(info).includes("cluster_state:ok"),
        )
          ? true
          : undefined,
      30_000,
      100,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls: nodes.map((n) => `redis://127.0.0.1:${n.port}`), nodeClients: () => clients, stop };
}
