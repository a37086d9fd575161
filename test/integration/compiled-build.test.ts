import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Queue } from "bullmq";
import { freePorts } from "../../scripts/bench/stack/free-port";
import { readProcfile } from "../../scripts/start/procfile";
import { config } from "../../shared/config";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { compiledEntry, ProcessDeployment, type WebProcess, type WorkerProcess } from "../helpers/process-deployment";

const ROOT = join(__dirname, "..", "..");
const run = promisify(execFile);

/**
 * The build as production runs it: `npm run build` (scripts/build.sh) once, then the Procfile's
 * `release`, `web` and worker commands from dist/ with plain node, in production mode, on a queue
 * prefix of their own (the shared harness's in-process workers never take these jobs; the harness
 * provides the database, keys and the LLM simulator).
 */
const PREFIX = config.queue.prefix.replace("}", "-dist}");
const PRODUCTION = {
  NODE_ENV: "production",
  ADMIN_PASSWORD: "compiled-build-admin",
  // The harness's keys and the children's sealing share this root; production wants 32 characters.
  SECRETS_KEY: config.secretsKey.padEnd(32, "-"),
  // The test environment accepts session tokens, which production allows only with both of these.
  SESSION_JWT_ISSUER: "apiary-test",
  SESSION_JWT_AUDIENCE: "apiary-test",
};

describe("the compiled build: web and workers from dist/ under plain node", function () {
  this.timeout(120_000);
  let h: Harness;
  let deployment: ProcessDeployment;
  let web: WebProcess;
  let workers: WorkerProcess[];
  let redis: RedisClient;
  let queues: { agent: Queue; swarm: Queue };

  before(async function () {
    this.timeout(600_000);
    // The one build of a test run: nothing else in the suite compiles.
    await run("bash", [join(ROOT, "scripts/build.sh")], { cwd: ROOT });
    h = await harness();
    redis = createRedis("blocking");
    queues = {
      agent: new Queue("agent", { connection: redis, prefix: PREFIX }),
      swarm: new Queue("swarm", { connection: redis, prefix: PREFIX }),
    };
    deployment = new ProcessDeployment(
      // A run that never finishes answers 504 well within the test's time, not after 5 minutes.
      { ...process.env, ...PRODUCTION, QUEUE_PREFIX: PREFIX, LOG_LEVEL: "warn", SYNC_WAIT_MS: "60000" },
      true,
    );
    await deployment.run("release", "scripts/migrate.ts", []);
    [web, ...workers] = await Promise.all([
      deployment.startWeb("web"),
      deployment.startWorker("worker-agent", ["agent"]),
      deployment.startWorker("worker-swarm", ["swarm"]),
    ]);
  });

  after(async () => {
    await deployment?.stop();
    await Promise.all(Object.values(queues ?? {}).map((q) => q.close()));
    redis?.disconnect();
  });

  it("the Procfile runs exactly these compiled entry points, with node", () => {
    const commands = Object.fromEntries(readProcfile(join(ROOT, "Procfile")).map((p) => [p.name, p.command]));
    expect(commands).to.deep.equal({
      web: `node ${compiledEntry("api/main.ts")}`,
      "worker-swarm": `node ${compiledEntry("workers/main.ts")} --queues swarm --metrics-port 9464`,
      "worker-agent": `node ${compiledEntry("workers/main.ts")} --queues agent --metrics-port 9465`,
      "worker-chain": `node ${compiledEntry("workers/main.ts")} --queues chain --metrics-port 9466`,
      "worker-webhooks": `node ${compiledEntry("workers/main.ts")} --queues webhooks --metrics-port 9467`,
      release: `node ${compiledEntry("scripts/migrate.ts")}`,
    });
    for (const entry of ["api/main.ts", "workers/main.ts", "scripts/migrate.ts", "scripts/healthcheck.ts"])
      expect(existsSync(join(ROOT, compiledEntry(entry))), entry).to.equal(true);
  });

  it("answers an agent completion (POST /v1/agent/completions), run by the compiled agent worker", async () => {
    const { key } = await h.newKey();
    const res = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Builder" }, task: "Say something about dist/." },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.success).to.equal(true);
    const job = await queues.agent.getJob(res.body.job_id);
    expect(job?.processedBy).to.equal(workers[0].name);
  });

  it("answers a swarm completion (POST /v1/swarm/completions), run by the compiled swarm worker", async () => {
    const { key } = await h.newKey();
    const res = await request(web.url, "POST", "/v1/swarm/completions", {
      key,
      body: {
        name: "Pair",
        swarm_type: "SequentialWorkflow",
        agents: [{ agent_name: "Drafter" }, { agent_name: "Checker" }],
        task: "Check the build.",
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal("success");
    const job = await queues.swarm.getJob(res.body.job_id);
    expect(job?.processedBy).to.equal(workers[1].name);
  });

  it("finds its run-time files from dist/: the page views and the API reference's assets", async () => {
    const page = await fetch(`${web.platformUrl}/prompt/00000000-0000-4000-8000-000000000000`);
    expect(page.status).to.equal(404);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(await page.text()).to.match(/<html/i);
    const css = await fetch(`${web.url}/docs/assets/swagger-ui.css`);
    expect(css.status).to.equal(200);
  });

  it("the image's healthcheck script passes on the web's port and fails where nothing answers", async () => {
    const healthcheck = (port: string) =>
      run(process.execPath, [compiledEntry("scripts/healthcheck.ts")], {
        cwd: ROOT,
        env: { ...process.env, ...PRODUCTION, PORT: port },
      }).then(
        () => 0,
        (err: { code?: number }) => err.code,
      );
    expect(await healthcheck(new URL(web.url).port)).to.equal(0);
    const [closed] = await freePorts(1);
    expect(await healthcheck(String(closed))).to.equal(1);
  });
});
