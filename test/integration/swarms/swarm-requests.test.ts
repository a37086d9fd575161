import { expect } from "chai";
import { swarmRequestSchema } from "../../../api/schemas/swarm-request.schema";
import { validateRequest } from "../../../api/schemas/validate-request";
import { normaliseSwarmRequest } from "../../../api/runs/swarm-request";
import { config } from "../../../shared/config";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { findRun, insertRun, isTerminal } from "../../../shared/db/runs/run-rows";
import { newRunId } from "../../../shared/db/run-id";
import { enqueue } from "../../../shared/queues/queues";
import { SWARM_CATALOG, SWARM_TYPES } from "../../../shared/swarms/swarm-catalog";
import { swarmRunners } from "../../../workers/swarms/registry";
import { expectTotalOfParts } from "../../helpers/costs";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { dataUrl, PNG_1PX } from "../../helpers/images";
import { startImageServer, type ImageServer } from "../../helpers/image-server";
import { agent, callerOf, callsMentioning, inputOf, postSwarm, uniqueMarker } from "../../helpers/swarm";

describe("swarm completion request handling", () => {
  let h: Harness;
  let key: string;
  let keyId: string;
  let userId: string;
  let images: ImageServer;
  before(async () => {
    h = await harness();
    ({ key, keyId, userId } = await h.newKey());
    images = await startImageServer(); // image URLs are fetched by the worker: an allowed local server
  });
  after(async () => images?.close());

  describe("refusals", () => {
    it("422 at body.task (a missing task, as on every endpoint) when there is no task, tasks or messages, before any LLM call", async () => {
      for (const body of [{}, { task: "" }, { tasks: [] }, { messages: [] }]) {
        const res = await postSwarm(h, key, { swarm_type: "SequentialWorkflow", agents: [agent("Lonely")], ...body });
        expect(res.status, JSON.stringify(body)).to.equal(422);
        expect(res.body).to.include({ code: "VALIDATION_ERROR", status_code: 422 });
        expect(res.body.detail).to.have.length(1);
        expect(res.body.detail[0]).to.include({ type: "any.required" });
        expect(res.body.detail[0].loc).to.deep.equal(["body", "task"]);
        expect(res.body.detail[0].msg).to.match(/'tasks' or 'messages'/);
      }
    });

    it("422 with one FastAPI entry per problem for max_loops 0, a 101-character name and an unknown swarm_type", async () => {
      const base = { agents: [agent("A")], task: uniqueMarker("schema") };
      const cases: [Record<string, unknown>, string][] = [
        [{ max_loops: 0 }, "max_loops"],
        [{ name: "n".repeat(101) }, "name"],
        [{ swarm_type: "SwarmOfBees" }, "swarm_type"],
      ];
      for (const [fields, field] of cases) {
        const res = await postSwarm(h, key, { ...base, ...fields });
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.detail).to.be.an("array").with.length(1);
        expect(res.body.detail[0].loc).to.deep.equal(["body", field]);
        expect(res.body.detail[0]).to.include.keys("msg", "type");
      }
      // All problems at once.
      const all = await postSwarm(h, key, { ...base, max_loops: 0, name: "n".repeat(101), swarm_type: "SwarmOfBees" });
      expect(all.status).to.equal(422);
      expect(all.body.detail.map((d: any) => d.loc[1]).sort()).to.deep.equal(["max_loops", "name", "swarm_type"]);
      // A 100-character name is fine.
      const ok = await postSwarm(h, key, { ...base, task: uniqueMarker("name-100"), name: "n".repeat(100) });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.swarm_name).to.equal("n".repeat(100));
    });

    it("a stored run whose request bypassed the API's rules fails with 400 INVALID_SWARM before any LLM call", async () => {
      const bypassed: [Record<string, unknown>, RegExp][] = [
        [{ swarm_type: "DebateWithJudge" }, /DebateWithJudge needs exactly 3 agents/],
        [{ swarm_type: "SwarmOfBees" }, /swarm_type 'SwarmOfBees' is not available/],
      ];
      for (const [fields, detail] of bypassed) {
        const marker = uniqueMarker("bypass");
        const { value } = validateRequest(swarmRequestSchema, { agents: [agent("A"), agent("B")], task: marker });
        const owner = { apiKeyId: keyId, userId, tier: "free" };
        const stored = { ...normaliseSwarmRequest(value as SwarmRequest, owner), ...fields };
        const runId = newRunId();
        await insertRun(h.deps.ds, { id: runId, kind: "swarm", apiKeyId: keyId, userId, request: stored });
        await enqueue(h.deps.queues.shards[0], "swarm-run", { runId }, runId);
        const run = await eventually(async () => {
          const row = await findRun(h.deps.ds, runId);
          return row && isTerminal(row.status) ? row : undefined;
        });
        expect(run.status, JSON.stringify(fields)).to.equal("failed");
        expect(run.error).to.include({ code: "INVALID_SWARM" });
        expect((run.error as { message: string }).message).to.match(detail);
        expect(callsMentioning(h, marker)).to.have.length(0);
      }
    });

    it("accepts the legacy HiearchicalSwarm spelling and runs it as HierarchicalSwarm", async () => {
      const marker = uniqueMarker("legacy");
      const res = await postSwarm(h, key, { swarm_type: "HiearchicalSwarm", agents: [agent("Boss")], task: marker });
      expect(res.status, JSON.stringify(res.body)).to.equal(200); // not 422: the schema took the spelling
      expect(res.body.swarm_type).to.equal("HierarchicalSwarm");
      expect(callsMentioning(h, marker).length).to.be.above(0);
    });

    it("500 naming the agent when an agent's turn fails, with what finished; later agents never run", async () => {
      const marker = uniqueMarker("fail");
      const res = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents: [agent("Steady"), agent("Breaker", { llm_args: { sim_error: 400 } }), agent("Never")],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(500);
      expect(res.body.code).to.equal("AGENT_FAILED");
      expect(res.body.detail).to.be.a("string").and.include("Breaker");
      expect(res.body.job_id).to.be.a("string");
      expect(res.body).to.not.have.property("output");
      expect(callsMentioning(h, marker).map(callerOf)).to.deep.equal(["Steady", "Breaker"]);
      // What finished is in the answer: the first agent's output, the failure, the agent never run.
      const steady = res.body.agents[0];
      expect(res.body.agents.map((a: { agent: string; status: string }) => [a.agent, a.status])).to.deep.equal([
        ["Steady", "succeeded"],
        ["Breaker", "failed"],
        ["Never", "skipped"],
      ]);
      expect(steady.output).to.be.a("string").and.not.equal("");
      expect(res.body.agents[1].error).to.include("HTTP 400");
      expect(res.body.agents[2].output).to.equal(null);
      expect(res.body.usage.billing_info.total_cost, "the billed work is in the answer").to.be.greaterThan(0);
      expect(res.body.usage.input_tokens).to.be.greaterThan(0);
      // The job read tells the same failure with the same code, agents and usage.
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      expect(job.body.status).to.equal("failed");
      expect(job.body.detail).to.include("Breaker");
      expect(job.body).to.include({ code: res.body.code, agent: "Breaker" });
      expect(job.body.agents).to.deep.equal(res.body.agents);
      expect(job.body.usage).to.deep.equal(res.body.usage);
    });
  });

  describe("inputs", () => {
    it("runs SequentialWorkflow when swarm_type is missing and agents are given", async () => {
      const marker = uniqueMarker("default-type");
      const res = await postSwarm(h, key, { agents: [agent("One"), agent("Two")], task: marker });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.swarm_type).to.equal("SequentialWorkflow");
      const calls = callsMentioning(h, marker);
      expect(calls.map(callerOf)).to.deep.equal(["One", "Two"]);
      expect(inputOf(calls[1])).to.equal(`${marker}\n\nOne: ${res.body.output[0].content}`);
    });

    it("starts the transcript from messages and appends task after them", async () => {
      const marker = uniqueMarker("messages");
      const first = `first-message-${marker}`;
      const second = `second-message-${marker}`;
      const task = `the-task-${marker}`;
      const res = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents: [agent("Reader"), agent("Writer")],
        messages: [
          { role: "user", content: first },
          { role: "assistant", content: second },
        ],
        task,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      expect(calls.map(callerOf)).to.deep.equal(["Reader", "Writer"]);
      const input = inputOf(calls[0]);
      expect(input.indexOf(first)).to.be.at.least(0);
      expect(input.indexOf(second)).to.be.greaterThan(input.indexOf(first));
      expect(input.indexOf(task)).to.be.greaterThan(input.indexOf(second));
      expect(input.endsWith(task), "task comes last").to.equal(true);
      // The next agent's transcript starts from the same opening.
      expect(inputOf(calls[1]).startsWith(input)).to.equal(true);
      expect(inputOf(calls[1])).to.include(`Reader: ${res.body.output[0].content}`);
    });

    it("runs on messages alone", async () => {
      const marker = uniqueMarker("messages-only");
      const res = await postSwarm(h, key, { agents: [agent("Solo")], messages: [{ role: "user", content: marker }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(callsMentioning(h, marker)).to.have.length(1);
      expect(res.body.output.map((t: any) => t.role)).to.deep.equal(["Solo"]);
    });

    it("runs the swarm once per entry of tasks, in parallel, with output [{task, output}] in request order", async function () {
      this.timeout(30_000);
      const marker = uniqueMarker("tasks");
      const tasks = [`t1-${marker}`, `t2-${marker}`, `t3-${marker}`];
      const latency = 500;
      const res = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents: [
          agent("Drafter", { llm_args: { sim_latency_ms: latency } }),
          agent("Checker", { llm_args: { sim_latency_ms: latency } }),
        ],
        tasks,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.output).to.be.an("array").with.length(3);
      expect(res.body.output.map((o: any) => o.task)).to.deep.equal(tasks);
      tasks.forEach((task, i) => {
        const entry = res.body.output[i];
        expect(Object.keys(entry).sort()).to.deep.equal(["output", "task"]);
        expect(entry.output.map((t: any) => t.role)).to.deep.equal(["Drafter", "Checker"]);
        // Each task's swarm saw only its own task.
        const calls = callsMentioning(h, task);
        expect(calls.map(callerOf)).to.deep.equal(["Drafter", "Checker"]);
        expect(inputOf(calls[0])).to.equal(task);
        expect(inputOf(calls[1])).to.equal(`${task}\n\nDrafter: ${entry.output[0].content}`);
        tasks
          .filter((other) => other !== task)
          .forEach((other) => calls.forEach((c) => expect(JSON.stringify(c.messages)).to.not.include(other)));
      });
      expect(res.body.number_of_agents).to.equal(2);
      // In parallel: 3 tasks × 2 sequential calls would take 3 s one task after another.
      const sequentialSeconds = (tasks.length * 2 * latency) / 1_000;
      expect(res.body.execution_time).to.be.below(0.75 * sequentialSeconds);
    });

    it("sends img to every agent's turn as an image part (its data, fetched once) and bills it once", async () => {
      const marker = uniqueMarker("img");
      const img = `${images.url}/a.png?${marker}`;
      const res = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents: [agent("Looker"), agent("Describer"), agent("Critic")],
        task: marker,
        img,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      expect(calls.map(callerOf)).to.deep.equal(["Looker", "Describer", "Critic"]);
      for (const call of calls) {
        const user = call.messages.filter((m: any) => m.role === "user").at(-1);
        expect(user.content, `${callerOf(call)}'s turn`).to.be.an("array");
        const images = user.content.filter((p: any) => p.type === "image_url");
        expect(images, `${callerOf(call)}'s image parts`).to.have.length(1);
        expect(images[0].image_url.url).to.equal(dataUrl(PNG_1PX));
      }
      const billing = res.body.usage.billing_info;
      expect(billing.cost_breakdown.img_cost).to.equal(config.pricing.perImage);
      expect(billing.cost_breakdown.img_cost).to.equal(0.25);
      const b = billing.cost_breakdown;
      expectTotalOfParts(billing.total_cost, [
        b.agent_cost,
        b.input_token_cost,
        b.output_token_cost,
        b.img_cost,
        b.mcp_cost ?? 0,
      ]);
    });

    it("puts rules and description in every agent's system prompt", async () => {
      const marker = uniqueMarker("rules");
      const rules = `Answer in haiku only ${marker}`;
      const description = `A poetry circle ${marker}`;
      const res = await postSwarm(h, key, {
        swarm_type: "ConcurrentWorkflow",
        description,
        rules,
        agents: [agent("Poet"), agent("Editor"), agent("Publisher")],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.description).to.equal(description);
      const calls = h.sim.journal
        .filter((e: any) => JSON.stringify(e.body.messages).includes(`haiku only ${marker}`))
        .map((e: any) => e.body);
      expect(calls.map(callerOf).sort()).to.deep.equal(["Editor", "Poet", "Publisher"]);
      for (const call of calls) {
        expect(call.messages[0].role).to.equal("system");
        expect(call.messages[0].content).to.include(rules).and.include(description).and.include("Swarm rules");
        // Still the agent's own prompt too.
        expect(call.messages[0].content).to.include(`You are ${callerOf(call)}.`);
      }
    });
  });

  describe("GET /v1/swarms/available", () => {
    it("lists the available types of the catalog, in catalog order", async () => {
      const res = await request(h.baseUrl, "GET", "/v1/swarms/available", { key });
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.swarm_types).to.deep.equal(SWARM_TYPES.filter((t) => SWARM_CATALOG[t].available));
    });

    it("lists only types the service can run: each has a worker implementation", async () => {
      const res = await request(h.baseUrl, "GET", "/v1/swarms/available", { key });
      const runnable = Object.keys(swarmRunners);
      const listedButNotRunnable = (res.body.swarm_types as string[]).filter((t) => !runnable.includes(t));
      expect(
        listedButNotRunnable,
        "listed as available, but the worker has no implementation (a request would pass validation, then fail as a 500)",
      ).to.deep.equal([]);
      // And every implemented type is offered.
      expect(runnable.filter((t) => !res.body.swarm_types.includes(t))).to.deep.equal([]);
    });
  });

  describe("service_tier", () => {
    it("flex is echoed and its token costs carry the flex discount compared with a standard run of the same request", async function () {
      this.timeout(30_000);
      const marker = uniqueMarker("tier");
      const body = {
        name: "Tiered",
        swarm_type: "SequentialWorkflow",
        agents: [
          agent("Costed", { llm_args: { sim_reply: `A reply long enough to cost something ${"word ".repeat(200)}` } }),
          agent("Second"),
        ],
        task: `${marker} ${"context ".repeat(300)}`,
      };
      const standard = await postSwarm(h, key, body);
      const flex = await postSwarm(h, key, { ...body, service_tier: "flex" });
      expect(standard.status, JSON.stringify(standard.body)).to.equal(200);
      expect(flex.status, JSON.stringify(flex.body)).to.equal(200);
      expect(standard.body.service_tier).to.equal("standard");
      expect(flex.body.service_tier).to.equal("flex");

      const s = standard.body.usage.billing_info;
      const f = flex.body.usage.billing_info;
      expect(f.cost_breakdown.service_tier).to.equal("flex");
      expect(s.cost_breakdown.service_tier).to.equal("standard");
      expect(f.discount_active).to.equal(true);
      // Same request, same tokens...
      expect(flex.body.usage.input_tokens).to.equal(standard.body.usage.input_tokens);
      expect(flex.body.usage.output_tokens).to.equal(standard.body.usage.output_tokens);
      // ...lower token costs, by the configured flex discount (the night discount, if any, applies to both).
      expect(f.cost_breakdown.night_time_discount_applied).to.equal(s.cost_breakdown.night_time_discount_applied);
      expect(f.cost_breakdown.input_token_cost).to.be.below(s.cost_breakdown.input_token_cost);
      expect(f.cost_breakdown.output_token_cost).to.be.below(s.cost_breakdown.output_token_cost);
      const factor = 1 - config.pricing.flexDiscount;
      expect(f.cost_breakdown.input_token_cost).to.be.closeTo(s.cost_breakdown.input_token_cost * factor, 2e-6);
      expect(f.cost_breakdown.output_token_cost).to.be.closeTo(s.cost_breakdown.output_token_cost * factor, 2e-6);
      expect(f.cost_breakdown.agent_cost).to.equal(s.cost_breakdown.agent_cost);
      expect(f.total_cost).to.be.below(s.total_cost);
    });
  });
});
