import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromSource, readProcfile } from "../../scripts/start/procfile";
import { COMPOSE_VARIABLES, envExample } from "../../scripts/env-example";
import { domains } from "../../shared/config";

/**
 * What can be checked of the Dockerfile, docker-compose.yml and the Procfile without a Docker
 * engine: every path exists, every command is a compiled entry point, the runtime is unprivileged,
 * the databases stay off the host, and .env.example lists exactly the declared variables.
 */
const ROOT = join(__dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

const build = JSON.parse(read("tsconfig.build.json")) as { include: string[]; exclude: string[] };
/** `dist/api/main.js` → `api/main.ts`, when the build compiles that source (included, not excluded). */
function builtSource(compiled: string): string | null {
  const match = /^dist\/(.+)\.js$/.exec(compiled);
  if (!match) return null;
  const source = `${match[1]}.ts`;
  const under = (dir: string) => source === dir || source.startsWith(`${dir}/`);
  if (!build.include.some(under) || build.exclude.some(under)) return null;
  return existsSync(join(ROOT, source)) ? source : null;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
const instructions = read("Dockerfile")
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const [op, ...rest] = line.split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(" ") };
  });
const stages = instructions.filter((i) => i.op === "FROM").map((i) => /\bAS\s+(\S+)/i.exec(i.args)?.[1]);
const runtimeStart = instructions.findLastIndex((i) => i.op === "FROM");
const runtime = instructions.slice(runtimeStart);

/** The service blocks of docker-compose.yml (two-space-indented names under `services:`), as text. */
function composeServices(): Map<string, string> {
  const text = read("docker-compose.yml");
  const body = text.slice(text.indexOf("\nservices:\n"), text.indexOf("\nvolumes:\n"));
  const services = new Map<string, string>();
  for (const block of body.split(/\n(?= {2}[\w-]+:\n)/).slice(1)) {
    services.set(/^ {2}([\w-]+):/.exec(block)![1], block);
  }
  return services;
}

describe("Dockerfile", () => {
  it("copies only paths that exist in the repository, or that an earlier stage produced", () => {
    const copies = instructions.filter((i) => i.op === "COPY");
    expect(copies).to.not.be.empty;
    for (const { args } of copies) {
      const parts = args.split(/\s+/).filter((p) => !p.startsWith("--chown"));
      const from = /^--from=(\S+)$/.exec(parts[0])?.[1];
      const sources = (from ? parts.slice(1) : parts).slice(0, -1);
      if (from) {
        expect(stages, args).to.include(from);
        // What a stage produced: its dependencies, or the build's dist/.
        for (const src of sources) expect(src, args).to.be.oneOf(["/app/node_modules", "/app/dist"]);
      } else for (const src of sources) expect(existsSync(join(ROOT, src)), src).to.equal(true);
    }
    const buildStage = instructions.slice(instructions.findIndex((i) => /\bAS build$/i.test(i.args)));
    expect(buildStage.map((i) => i.args)).to.include("bash scripts/build.sh");
  });

  it("runs a compiled entry point with node, as a non-root user, from a slim image without dev dependencies", () => {
    expect(runtime[0].args).to.match(/^\$\{NODE_IMAGE\}|^node:20-bookworm-slim/);
    expect(read("Dockerfile")).to.match(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    const cmd = JSON.parse(runtime.find((i) => i.op === "CMD")!.args) as string[];
    expect(cmd[0]).to.equal("node");
    expect(builtSource(cmd[1]), cmd[1]).to.equal("api/main.ts");
    const user = runtime.find((i) => i.op === "USER")?.args;
    expect(user)
      .to.be.a("string")
      .and.not.match(/^(root|0)(:|$)/);
    const depsFrom = /--from=(\S+)\s+\/app\/node_modules/.exec(runtime.map((i) => i.args).join("\n"))?.[1];
    const depsStage = instructions.slice(
      instructions.findIndex((i) => i.op === "FROM" && i.args.endsWith(` AS ${depsFrom}`)),
    );
    const stageEnd = depsStage.findIndex((i, n) => n > 0 && i.op === "FROM");
    const runs = depsStage.slice(0, stageEnd < 0 ? undefined : stageEnd).filter((i) => i.op === "RUN");
    expect(
      runs.some((i) => /npm ci --omit=dev/.test(i.args)),
      runs.map((i) => i.args).join("\n"),
    ).to.equal(true);
  });

  it("has a HEALTHCHECK that runs the compiled healthcheck script", () => {
    const check = runtime.find((i) => i.op === "HEALTHCHECK")?.args ?? "";
    const cmd = JSON.parse(check.slice(check.indexOf("["))) as string[];
    expect(cmd[0]).to.equal("node");
    expect(builtSource(cmd[1]), cmd[1]).to.equal("scripts/healthcheck.ts");
  });

  it("is kept from secrets and local state by .dockerignore", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", "node_modules", "dist", ".data", ".git", ".bench"]) expect(ignored).to.include(entry);
  });
});

describe("docker-compose.yml", () => {
  const services = composeServices();

  it("runs every command as node on a compiled entry point", () => {
    const commands = [...services].filter(([name]) => !["postgres", "redis"].includes(name));
    expect(commands.map(([name]) => name)).to.include.members([
      "release",
      "web",
      "worker-swarm",
      "worker-agent",
      "worker-chain",
    ]);
    for (const [name, block] of commands) {
      const command = JSON.parse(/^ {4}command: (\[.*\])$/m.exec(block)![1]) as string[];
      expect(command[0], name).to.equal("node");
      expect(builtSource(command[1]), `${name}: ${command[1]}`).to.be.a("string");
    }
  });

  it("keeps Postgres and Redis off the host and the development servers in the opt-in dev profile", () => {
    for (const name of ["postgres", "redis"]) expect(services.get(name), name).to.not.match(/^ {4}ports:/m);
    for (const [name, block] of services) {
      const dev = ["llm-simulator", "solana-localnet"].includes(name);
      expect(/^ {4}profiles: \["dev"\]$/m.test(block), name).to.equal(dev);
    }
  });

  it("runs the app in production mode with its secrets from .env, migrations first", () => {
    const text = read("docker-compose.yml");
    expect(text).to.match(/^ {2}env_file: \.env$/m);
    expect(text).to.match(/^ {4}NODE_ENV: production$/m);
    expect(text).to.not.match(/ADMIN_PASSWORD:|SECRETS_KEY:|_API_KEY:/);
    expect(text).to.match(/release:\n\s+condition: service_completed_successfully/);
  });

  /** A service's health check command, as JSON. */
  const healthcheckOf = (name: string): string[] =>
    JSON.parse(/^ {4}healthcheck:\n(?: {6}.*\n)*? {6}test: (\[.*\])$/m.exec(services.get(name) ?? "")?.[1] ?? "[]");

  it("probes each app process's readiness: the web's /readyz and each worker's on the Procfile's metrics port", () => {
    expect(healthcheckOf("web")).to.deep.equal(["CMD", "node", "dist/scripts/healthcheck.js", "--path", "/readyz"]);
    const procfile = readProcfile(join(ROOT, "Procfile"));
    const workers = procfile.filter(({ name }) => name.startsWith("worker-"));
    expect(workers).to.have.length(4);
    for (const { name, command } of workers) {
      const port = /--metrics-port (\d+)/.exec(command)![1];
      const block = services.get(name) ?? "";
      const composeCommand = JSON.parse(/^ {4}command: (\[.*\])$/m.exec(block)![1]) as string[];
      // The same process as the Procfile runs, on the same port, so one scrape configuration fits both.
      expect(composeCommand.join(" "), name).to.equal(command);
      expect(healthcheckOf(name), name).to.deep.equal([
        "CMD",
        "node",
        "dist/scripts/healthcheck.js",
        "--port",
        port,
        "--path",
        "/readyz",
      ]);
    }
  });

  it("is described by the docs as it is: the worker ports, the scrape targets and the published ports", () => {
    const workers = readProcfile(join(ROOT, "Procfile")).filter(({ name }) => name.startsWith("worker-"));
    const ports = workers.map(({ command }) => /--metrics-port (\d+)/.exec(command)![1]);
    const range = `${ports[0]}–${ports[ports.length - 1]}`;
    expect(read("README.md")).to.include(`each worker's port, ${range}`);
    expect(read("docs/observability.md")).to.include(`each worker's metrics port (${range})`);
    const targets = workers.map(({ name }, i) => `"${name}:${ports[i]}"`).join(", ");
    expect(read("docs/observability.md")).to.include(`targets: ["web:8080", ${targets}]`);
    const operations = read("docs/operations.md").replace(/\s+/g, " ");
    for (const [i, { name }] of workers.entries()) expect(operations).to.include(`\`${name}\` ${ports[i]}`);
    // The published ports are the web's defaults, as the configuration reference gives them.
    const published = [...(services.get("web") ?? "").matchAll(/^ {6}- "(\d+):(\d+)"$/gm)].map((m) => [m[1], m[2]]);
    expect(published).to.deep.equal([
      ["8080", "8080"],
      ["8081", "8081"],
    ]);
    const configuration = read("docs/configuration.md");
    expect(configuration).to.match(/^\| `PORT` +\| `8080` +\|/m);
    expect(configuration).to.match(/^\| `PLATFORM_PORT` +\| `8081` +\|/m);
    expect(operations).to.include("`web` publishes 8080 and 8081");
  });

  it("sets only variables the configuration reference describes", () => {
    const text = read("docker-compose.yml");
    const set = new Set(
      [...text.matchAll(/^ {4,6}([A-Z][A-Z0-9_]*): /gm)]
        .map((m) => m[1])
        // The Postgres image's own variables, not Apiary's.
        .filter((name) => !name.startsWith("POSTGRES_")),
    );
    expect([...set]).to.include.members(["NODE_ENV", "DATABASE_URL", "REDIS_URL", "HOST"]);
    const configuration = read("docs/configuration.md");
    for (const name of set) expect(configuration, name).to.match(new RegExp(`^\\| \`${name}\` `, "m"));
  });

  it("interpolates only variables .env.example lists", () => {
    const declared = new Set([
      ...Object.keys(COMPOSE_VARIABLES),
      ...Object.values(domains).flatMap((d) => Object.keys(d.settings)),
    ]);
    const used = [...read("docker-compose.yml").matchAll(/\$\{(\w+)/g)].map((m) => m[1]);
    expect(used).to.not.be.empty;
    for (const name of used) expect(declared.has(name), name).to.equal(true);
  });
});

describe("Procfile", () => {
  it("runs each process type as node on a compiled entry point", () => {
    for (const { name, command } of readProcfile(join(ROOT, "Procfile"))) {
      const [node, entry] = command.split(/\s+/);
      expect(node, name).to.equal("node");
      expect(builtSource(entry), `${name}: ${entry}`).to.be.a("string");
    }
  });

  it("maps to its TypeScript source for `npm start`, arguments kept", () => {
    expect(fromSource("node dist/workers/main.js --queues swarm")).to.equal("npx tsx workers/main.ts --queues swarm");
    expect(fromSource("node dist/api/main.js")).to.equal("npx tsx api/main.ts");
    expect(fromSource("echo node dist/api/main.js")).to.equal("echo node dist/api/main.js");
  });
});

describe(".env.example", () => {
  it("is what `npm run env-example` generates from shared/config/ (run it after declaring a variable)", () => {
    expect(read(".env.example")).to.equal(envExample());
  });

  it("lists exactly the declared variables and those Compose reads, each once", () => {
    const listed = [...read(".env.example").matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(listed).to.deep.equal([
      ...Object.keys(COMPOSE_VARIABLES),
      ...Object.values(domains).flatMap((d) => Object.keys(d.settings)),
    ]);
  });
});
