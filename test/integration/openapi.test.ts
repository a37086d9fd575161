import { Validator } from "@seriousme/openapi-schema-validator";
import type Router from "@koa/router";
import { Connection } from "@solana/web3.js";
import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { get } from "node:http";
import { executionApiRouters } from "../../api/app";
import type { BodyValidator } from "../../api/http/validate";
import { openApiPath, operationsOf } from "../../api/openapi/operation";
import { createPlatformServices } from "../../api/marketplace/platform-services";
import { platformRouters } from "../../api/routes/platform";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { DocumentSchemas, documentedRoutes, registeredRoutes, type Doc } from "../helpers/openapi";
import { promptBody } from "../helpers/prompts";
import { fundedWallet, keyEncodings, newKeypair } from "../helpers/solana-keys";
import { parseSse } from "../helpers/sse";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** Event names of a `text/event-stream` body, in order of first appearance. */
const eventNames = (body: string) => [...new Set(parseSse(body).map((f) => f.event))];

/** A run's id. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("OpenAPI documents and docs pages", function () {
  this.timeout(120_000);
  let h: Harness;
  let api: { doc: Doc; schemas: DocumentSchemas; routers: Router[] };
  let platform: { doc: Doc; schemas: DocumentSchemas; routers: Router[] };

  before(async () => {
    h = await harness();
    const served = await Promise.all([
      request(h.baseUrl, "GET", "/openapi.json"),
      request(h.platformUrl, "GET", "/openapi.json"),
    ]);
    for (const res of served) expect(res.status, "served without an API key").to.equal(200);
    const { open, v1 } = executionApiRouters(h.deps, createRateLimiter(h.deps.redis));
    api = { doc: served[0].body, schemas: new DocumentSchemas(served[0].body, "api"), routers: [...open, ...v1] };
    platform = {
      doc: served[1].body,
      schemas: new DocumentSchemas(served[1].body, "platform"),
      routers: platformRouters(h.deps, createPlatformServices()),
    };
  });

  describe("validity", () => {
    for (const app of ["api", "platform"] as const) {
      it(`the ${app} document is valid OpenAPI 3.1 with every reference resolvable`, async () => {
        const doc = app === "api" ? api.doc : platform.doc;
        const validator = new Validator();
        const result = await validator.validate(structuredClone(doc));
        expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).to.deep.equal([]);
        expect(result.valid).to.equal(true);
        expect(validator.version).to.equal("3.1");
        expect(() => validator.resolveRefs()).not.to.throw();
      });

      it(`every schema of the ${app} document compiles as strict JSON Schema 2020-12`, () => {
        (app === "api" ? api.schemas : platform.schemas).compileAll();
      });
    }
  });

  describe("coverage", () => {
    for (const app of ["api", "platform"] as const) {
      it(`describes every route of the ${app} app's routers, and no route that does not exist`, () => {
        const { doc, routers } = app === "api" ? api : platform;
        const registered = registeredRoutes(routers);
        const documented = documentedRoutes(doc);
        expect(registered.length).to.be.greaterThan(3);
        expect(
          registered.filter((r) => !documented.includes(r)),
          "routes without a description (add one with documentRoutes beside the router)",
        ).to.deep.equal([]);
        expect(
          documented.filter((r) => !registered.includes(r)),
          "descriptions of routes that do not exist",
        ).to.deep.equal([]);
      });
    }

    it("documents /health, the /v1 endpoints (agent and swarm completions and batches, jobs, logs, limits, catalogue) and the docs themselves", () => {
      expect(documentedRoutes(api.doc)).to.include.members([
        "GET /health",
        "GET /openapi.json",
        "GET /docs",
        "POST /v1/swarm/completions",
        "POST /v1/swarm/batch/completions",
        "POST /v1/agent/batch/completions",
        "POST /v1/agent/completions",
        "GET /v1/swarms/available",
        "GET /v1/models/available",
        "GET /v1/swarm/logs",
        "GET /v1/rate/limits",
        "GET /v1/usage",
        "GET /v1/jobs/{job_id}",
        "DELETE /v1/jobs/{job_id}",
      ]);
      expect(documentedRoutes(platform.doc)).to.include.members(["GET /health", "GET /openapi.json", "GET /docs"]);
    });

    it("documents the very joi schema each route validates its body with", () => {
      const checked: string[] = [];
      for (const router of [...api.routers, ...platform.routers]) {
        for (const layer of router.stack) {
          const validator = layer.stack.find((fn): fn is BodyValidator<unknown> => "bodySchema" in fn);
          if (!validator) continue;
          const path = openApiPath(String(layer.path));
          const op = operationsOf(router).find(
            (o) => o.path === path && layer.methods.includes(o.method.toUpperCase()),
          );
          expect(op?.request, `${path} documents no request body`).to.not.equal(undefined);
          if (op!.request!.itemsValidatedOneByOne) {
            // The route checks the envelope only; each item is validated by the service with the items' schema.
            expect(validator.bodySchema.type).to.equal("array");
            expect(op!.request!.body.type).to.equal("array");
          } else {
            expect(op!.request!.body, `${path} documents another schema than it validates with`).to.equal(
              validator.bodySchema,
            );
          }
          checked.push(path);
        }
      }
      expect(checked).to.include.members([
        AGENT_COMPLETIONS,
        "/v1/agent/batch/completions",
        "/v1/swarm/completions",
        "/v1/swarm/batch/completions",
        "/api/add-prompt",
        "/api/token/launch",
      ]);
    });

    it("documents the token launch's JSON and multipart bodies and every error it answers", () => {
      const op = platform.doc.paths["/api/token/launch"].post;
      expect(Object.keys(op.requestBody.content)).to.have.members(["application/json", "multipart/form-data"]);
      const form = op.requestBody.content["multipart/form-data"];
      expect(form.schema.properties).to.have.keys(
        "name",
        "description",
        "ticker",
        "private_key",
        "image",
        "fee_selection",
        "quote_mint",
      );
      expect(form.schema.required).to.have.members(["name", "description", "ticker", "private_key"]);
      expect(form.encoding.image.contentType).to.include("image/png");
      expect(op.responses).to.include.keys("200", "400", "401", "405", "429", "500");
      expect(op.responses["405"].headers).to.have.keys("Allow");
      const bad = op.responses["400"].content["application/json"].examples;
      expect(bad.insufficientBalance.value)
        .to.include({ error: "Insufficient SOL balance", required_sol: 0.04 })
        .and.to.have.property("current_balance_sol");
      expect(bad.tokenizationFailed.value.error).to.equal("Tokenization failed");
      expect(op.responses["500"].content["application/json"].examples.pending.value).to.include({
        code: "LAUNCH_PENDING",
      });
      const addPrompt = platform.doc.paths["/api/add-prompt"].post;
      expect(addPrompt.requestBody.content["application/json"].schema.properties.private_key.description).to.include(
        "never stored",
      );
      expect(addPrompt.responses).to.include.keys("400", "500");
    });

    it("documents streaming answers and the Prefer, Idempotency-Key and SDK retry headers of the run endpoints", () => {
      for (const path of ["/v1/swarm/completions", AGENT_COMPLETIONS]) {
        expect(Object.keys(api.doc.paths[path].post.responses["200"].content)).to.have.members([
          "application/json",
          "text/event-stream",
        ]);
      }
      for (const path of [
        "/v1/swarm/completions",
        "/v1/swarm/batch/completions",
        "/v1/agent/batch/completions",
        AGENT_COMPLETIONS,
      ]) {
        const refs = api.doc.paths[path].post.parameters.map((p: any) => p.$ref);
        expect(refs).to.have.members(
          ["Prefer", "IdempotencyKey", "RetryCount", "ClientTimeout"].map((name) => `#/components/parameters/${name}`),
        );
        expect(api.doc.paths[path].post.responses).to.include.keys("202", "401", "422", "429", "504");
        expect(api.doc.paths[path].post.responses["504"].headers).to.include.keys("Location", "x-should-retry");
      }
      expect(api.doc.components.parameters.IdempotencyKey).to.include({ name: "Idempotency-Key", in: "header" });
      expect(api.doc.components.parameters.RetryCount).to.include({ name: "X-Stainless-Retry-Count", in: "header" });
    });

    it("names endpoints by method and path in its text, never by the service specification's endpoint numbers", () => {
      const texts: string[] = [];
      const collect = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(collect);
        else if (node && typeof node === "object")
          for (const [key, value] of Object.entries(node)) {
            if ((key === "summary" || key === "description") && typeof value === "string") texts.push(value);
            else collect(value);
          }
      };
      collect([api.doc, platform.doc]);
      expect(texts.some((t) => t.includes("POST /api/add-prompt"))).to.equal(true); // the walk reaches operations
      expect(texts.filter((t) => /\bE[1-9]\b/.test(t))).to.deep.equal([]);
    });
  });

  describe("examples", () => {
    it("every example matches the schema it illustrates", () => {
      let count = 0;
      for (const { doc, schemas } of [api, platform]) {
        for (const [path, item] of Object.entries(doc.paths)) {
          for (const [method, op] of Object.entries<any>(item)) {
            const media = op.requestBody?.content?.["application/json"];
            for (const [name, example] of Object.entries<any>(media?.examples ?? {})) {
              expect(
                schemas.errors(media.schema, example.value),
                `${method} ${path} request example ${name}`,
              ).to.deep.equal([]);
              count++;
            }
            for (const [status, response] of Object.entries<any>(op.responses)) {
              const json = response.content?.["application/json"];
              for (const [name, example] of Object.entries<any>(json?.examples ?? {})) {
                expect(
                  schemas.errors(json.schema, example.value),
                  `${method} ${path} ${status} example ${name}`,
                ).to.deep.equal([]);
                count++;
              }
            }
          }
        }
      }
      expect(count).to.be.greaterThan(18);
    });

    it("every request example is accepted by the live API and answered as documented", async () => {
      const { key } = await h.newKey();
      const sent: string[] = [];
      const readBack: string[] = [];
      for (const [path, item] of Object.entries(api.doc.paths)) {
        for (const [method, op] of Object.entries<any>(item)) {
          const media = op.requestBody?.content?.["application/json"];
          for (const [name, example] of Object.entries<any>(media?.examples ?? {})) {
            const res = await request(h.baseUrl, method.toUpperCase(), path, { key, body: example.value });
            expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(200);
            expect(api.schemas.responseProblems(method, path, res), name).to.deep.equal([]);
            if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
              const documented = op.responses["200"].content["text/event-stream"].example as string;
              expect(eventNames(res.body), `${name}: the frames of the documented stream`).to.deep.equal(
                eventNames(documented),
              );
            }
            // A run read back is the answer it gave, in the document's words for GET /v1/jobs too.
            // (`id` where it is the run's id; OpenAI's `chatcmpl-…` ids name no job.)
            const jobIds = [res.body, ...(Array.isArray(res.body) ? res.body : [])]
              .map((answer: { job_id?: unknown; id?: unknown } | null) => answer?.job_id ?? answer?.id)
              .filter((id): id is string => typeof id === "string" && UUID.test(id));
            for (const jobId of jobIds) {
              const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
              expect(job.status, `${name}: GET /v1/jobs/${jobId}`).to.equal(200);
              expect(api.schemas.responseProblems("GET", `/v1/jobs/${jobId}`, job), `${name}: read back`).to.deep.equal(
                [],
              );
              readBack.push(name);
            }
            sent.push(`${method} ${path} ${name}`);
          }
        }
      }
      expect(sent).to.have.length.greaterThan(5);
      expect(sent.some((s) => s.startsWith(`post ${AGENT_COMPLETIONS}`))).to.equal(true);
      expect(readBack.length, "runs read back").to.be.greaterThan(5);
    });
  });

  describe("live answers match the documented schemas", () => {
    let key: string;
    const problems: string[] = [];
    /** Sends a request and records how its answer differs from the document; returns the answer. */
    const check = async (
      method: string,
      path: string,
      options: Parameters<typeof request>[3] = {},
      baseUrl = h.baseUrl,
    ) => {
      const res = await request(baseUrl, method, path, options);
      problems.push(...(baseUrl === h.baseUrl ? api : platform).schemas.responseProblems(method, path, res));
      return res;
    };

    before(async () => {
      ({ key } = await h.newKey());
    });

    afterEach(() => {
      expect(problems.splice(0), "answers that differ from the document").to.deep.equal([]);
    });

    it("meta endpoints, on both apps", async () => {
      expect((await check("GET", "/health")).status).to.equal(200);
      expect((await check("GET", "/health", {}, h.platformUrl)).status).to.equal(200);
      for (const path of [
        "/v1/swarms/available",
        "/v1/models/available",
        "/v1/rate/limits",
        "/v1/swarm/logs?limit=5",
      ]) {
        expect((await check("GET", path, { key })).status, path).to.equal(200);
      }
    });

    it("agent and swarm completions' and batches' answers, and each run read back through GET /v1/jobs/{job_id}", async () => {
      const agent = { agent_name: "Checker", model_name: "gpt-4.1", max_tokens: 100 };
      const agentRun = await check("POST", AGENT_COMPLETIONS, { key, body: { agent_config: agent, task: "Say hi." } });
      const agentBatch = await check("POST", "/v1/agent/batch/completions", {
        key,
        body: [
          { agent_config: agent, task: "One" },
          { agent_config: { ...agent, llm_args: { sim_error: 400 } }, task: "Two" },
        ],
      });
      const swarmRun = await check("POST", "/v1/swarm/completions", {
        key,
        body: { name: "Pair", agents: [agent, { ...agent, agent_name: "Second" }], task: "Count to two." },
      });
      const swarmBatch = await check("POST", "/v1/swarm/batch/completions", {
        key,
        body: [
          { agents: [agent], task: "One" },
          { agents: "not a list", task: "Two" },
        ],
      });
      expect([agentRun.status, agentBatch.status, swarmRun.status, swarmBatch.status]).to.deep.equal([
        200, 200, 200, 200,
      ]);
      expect(agentBatch.body.results[1]).to.include({ success: false, index: 1 });
      expect(swarmBatch.body.map((slot: any) => slot.status)).to.deep.equal(["success", "error"]);

      for (const jobId of [
        agentRun.body.job_id,
        agentBatch.body.batch_id,
        agentBatch.body.results[1].job_id,
        swarmRun.body.job_id,
        swarmBatch.body[0].job_id,
      ]) {
        expect((await check("GET", `/v1/jobs/${jobId}`, { key })).status).to.equal(200);
        expect((await check("GET", `/v1/jobs/${jobId}/steps`, { key })).status).to.equal(200);
      }
      expect((await check("GET", "/v1/jobs?include_items=true&limit=2", { key })).body.next_cursor).to.be.a("string");
      const estimate = await check("POST", "/v1/swarm/estimate", { key, body: { agents: [agent], task: "Price it" } });
      expect(estimate.status).to.equal(200);
      const asyncBatch = await check("POST", "/v1/swarm/batch/completions", {
        key,
        headers: { prefer: "respond-async" },
        body: [{ agents: [agent], task: "Later" }],
      });
      expect(asyncBatch.status).to.equal(202);
      const done = await eventually(async () => {
        const res = await request(h.baseUrl, "GET", `/v1/jobs/${asyncBatch.body.job_id}`, { key });
        return res.body.status === "success" ? res : undefined;
      });
      problems.push(...api.schemas.responseProblems("GET", `/v1/jobs/${asyncBatch.body.job_id}`, done));
      expect(done.body.results).to.have.length(1);
    });

    it("the account's usage after those runs", async () => {
      const res = await check("GET", "/v1/usage?days=7", { key });
      expect(res.status).to.equal(200);
      expect(res.body.by_day).to.not.be.empty;
    });

    it("a queued run, its cancellation, and cancelling it again", async () => {
      const queued = await check("POST", AGENT_COMPLETIONS, {
        key,
        headers: { prefer: "respond-async" },
        body: {
          agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 30_000 } },
          task: `slow-${randomUUID()}`,
        },
      });
      expect(queued.status).to.equal(202);
      const path = `/v1/jobs/${queued.body.job_id}`;
      expect((await check("GET", path, { key })).body.status).to.be.oneOf(["queued", "running"]);
      expect((await check("DELETE", path, { key })).status).to.equal(200);
      expect((await check("DELETE", path, { key })).status).to.equal(409);
      expect((await check("GET", path, { key })).body.status).to.equal("cancelled");
    });

    it("the token launch and tokenized prompt creation on the platform: launched, field problems, the balance check, 401 and 405", async () => {
      const connection = new Connection((await h.localnet()).rpcUrl, "confirmed");
      const bearer = { authorization: `Bearer ${key}` };
      const launch = { name: "Doc Bee", description: "Matches its document.", ticker: "DOC" };
      const wallet = await fundedWallet(connection, 0.05);
      const post = (path: string, body: unknown, headers: Record<string, string> = bearer) =>
        check("POST", path, { headers, body }, h.platformUrl);
      expect(
        (await post("/api/token/launch", { ...launch, private_key: keyEncodings(wallet).base58 })).status,
      ).to.equal(200);
      expect((await post("/api/token/launch", { ...launch, ticker: "no-no", private_key: "[1,2]" })).status).to.equal(
        400,
      );
      const empty = newKeypair();
      expect(
        (await post("/api/token/launch", { ...launch, private_key: keyEncodings(empty).base58 })).body.error,
      ).to.equal("Insufficient SOL balance");
      expect((await post("/api/token/launch", launch, {})).status).to.equal(401);
      const wrongMethod = await request(h.platformUrl, "GET", "/api/token/launch");
      expect(wrongMethod.status).to.equal(405);
      problems.push(
        ...platform.schemas.errors(
          platform.doc.paths["/api/token/launch"].post.responses["405"].content["application/json"].schema,
          wrongMethod.body,
        ),
      );

      const promptWallet = await fundedWallet(connection, 0.05);
      const prompt = (owner: typeof wallet) =>
        promptBody({
          tokenized_on: true,
          ticker: "doc",
          creator_wallet: owner.publicKey.toBase58(),
          private_key: keyEncodings(owner).json,
        });
      expect((await post("/api/add-prompt", prompt(promptWallet))).body.tokenized).to.equal(true);
      expect((await post("/api/add-prompt", prompt(empty))).body.error).to.equal("Insufficient SOL balance");
    });

    it("errors: 401, 404, 422 (body and query), 400 (rules and non-JSON), 500 (failed run)", async () => {
      expect((await check("GET", "/v1/rate/limits")).status).to.equal(401);
      expect((await check("GET", `/v1/jobs/${randomUUID()}`, { key })).status).to.equal(404);
      expect((await check("POST", AGENT_COMPLETIONS, { key, body: { task: 5 } })).status).to.equal(422);
      expect((await check("GET", "/v1/swarm/logs?limit=0", { key })).status).to.equal(422);
      expect((await check("GET", "/v1/usage?days=91", { key })).status).to.equal(422);
      const debate = { swarm_type: "DebateWithJudge", agents: [{ agent_name: "Alone" }], task: "x" };
      expect((await check("POST", "/v1/swarm/completions", { key, body: debate })).status).to.equal(400);
      expect(
        (await check("POST", AGENT_COMPLETIONS, { key, raw: "task=x", headers: { "content-type": "text/plain" } }))
          .status,
      ).to.equal(400);
      const failed = await check("POST", AGENT_COMPLETIONS, {
        key,
        body: { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: "x" },
      });
      expect(failed.status).to.equal(500);
      expect((await check("GET", `/v1/jobs/${failed.body.job_id}`, { key })).body.status).to.equal("failed");
    });
  });

  describe("docs pages", () => {
    for (const app of ["api", "platform"] as const) {
      it(`the ${app} app's /docs is an HTML page that names every path and loads only this server's files`, async () => {
        const baseUrl = app === "api" ? h.baseUrl : h.platformUrl;
        const doc = app === "api" ? api.doc : platform.doc;
        const page = await request(baseUrl, "GET", "/docs");
        expect(page.status).to.equal(200);
        expect(page.headers.get("content-type")).to.match(/^text\/html/);
        expect(page.headers.get("content-security-policy"))
          .to.include("default-src 'none'")
          .and.include("script-src 'self'");
        for (const path of Object.keys(doc.paths)) expect(page.body, path).to.include(path);

        const references = [...(page.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
        expect(references.length).to.be.greaterThan(3);
        for (const ref of references) {
          expect(ref, "no address outside this server").to.match(/^\/(?!\/)/);
          const asset = await fetch(`${baseUrl}${ref}`);
          expect(asset.status, ref).to.equal(200);
          await asset.arrayBuffer();
        }
      });
    }

    it("serves the Swagger UI bundle with a validator a browser can revalidate (304)", async () => {
      const first = await fetch(`${h.baseUrl}/docs/assets/swagger-ui-bundle.js`);
      expect(first.status).to.equal(200);
      expect(first.headers.get("content-type")).to.match(/^application\/javascript/);
      expect((await first.text()).length).to.be.greaterThan(100_000);
      // Not fetch(): with a conditional header it adds `Cache-Control: no-cache`, which rightly forbids a 304.
      const revalidated = await new Promise<number | undefined>((resolve, reject) =>
        get(
          `${h.baseUrl}/docs/assets/swagger-ui-bundle.js`,
          { headers: { "if-none-match": first.headers.get("etag")! } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        ).on("error", reject),
      );
      expect(revalidated).to.equal(304);
      expect((await fetch(`${h.baseUrl}/docs/assets/..%2Fpackage.json`)).status).to.equal(404);
    });
  });
});
