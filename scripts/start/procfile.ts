import { readFileSync } from "node:fs";

/** One `name: command` line of a Procfile. */
export interface ProcessType {
  name: string;
  command: string;
}

/** Parses a Procfile (blank lines and `#` comments ignored). */
export function readProcfile(path: string): ProcessType[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const colon = line.indexOf(":");
      return { name: line.slice(0, colon).trim(), command: line.slice(colon + 1).trim() };
    });
}
