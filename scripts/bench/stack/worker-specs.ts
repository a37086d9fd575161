import type { WorkerSpec } from "./service-stack";

/** The Procfile's two run workers: agent completions run in the agent worker, swarm turns in the swarm worker. */
export const RUN_WORKERS: WorkerSpec[] = [
  { name: "worker-agent", queues: ["agent"] },
  { name: "worker-swarm", queues: ["swarm"] },
];

/** `count` worker processes for `queue` alone, named `worker-<queue>-1`, `-2`… */
export function workersFor(queue: string, count: number): WorkerSpec[] {
  return Array.from({ length: count }, (_, i) => ({ name: `worker-${queue}-${i + 1}`, queues: [queue] }));
}
