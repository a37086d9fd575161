import { cpus, loadavg, totalmem } from "node:os";

/** What the numbers were measured on; benchmarks are meaningless without it. */
export interface MachineInfo {
  date: string;
  cpuModel: string;
  cores: number;
  totalMemGiB: number;
  loadAvg1m: number;
  node: string;
  platform: string;
}

/** Describes this machine and Node.js version. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    cpuModel: list[0]?.model.trim() ?? "unknown CPU",
    cores: list.length,
    totalMemGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAvg1m: loadavg()[0],
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}
