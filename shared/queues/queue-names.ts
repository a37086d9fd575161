/** The BullMQ queues: one per kind of worker (`worker-swarm`, `worker-agent`, `worker-chain`). */
export const QUEUE_NAMES = ["swarm", "agent", "chain"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Whether `value` names one of the queues (an operator's or a setting's spelling). */
export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}
