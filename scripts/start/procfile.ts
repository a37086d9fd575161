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

const COMPILED_ENTRY = /^node dist\/(\S+)\.js(?=\s|$)/;

/**
 * The development form of a Procfile command: the Procfile runs compiled JavaScript
 * (`node dist/api/main.js`), `npm start` runs its TypeScript source with tsx (`npx tsx api/main.ts`),
 * so development needs no build. Any other command is returned as it is.
 */
export function fromSource(command: string): string {
  return command.replace(COMPILED_ENTRY, "npx tsx $1.ts");
}
