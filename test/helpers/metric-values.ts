import type { Counter, Registry } from "prom-client";

/** The sum of a counter's series that carry `labels` (whatever their other labels; 0 when none). */
export async function counted(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name) as Counter | undefined;
  const values = (await metric?.get())?.values ?? [];
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}
