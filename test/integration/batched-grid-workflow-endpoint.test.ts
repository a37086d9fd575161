import { expect } from "chai";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { agent, callerOf, callsMentioning, conversationOf, inputOf, uniqueMarker } from "../helpers/swarm";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

const PATH = "/v1/batched-grid-workflow/completions";
const IMAGE = (n: number) => `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ${n}A==`;

/** The image URLs a call's user message carries. */
function imagesOf(call: any): string[] {
  const user = call.messages.filter((m: any) => m.role === "user").at(-1);
  if (!Array.isArray(user?.content)) return [];
  return user.content.filter((p: any) => p.type === "image_url").map((p: any) => p.image_url.url);
}

describe("POST /v1/batched-grid-workflow/completions", () => {
  let h: Harness;
  let key: string;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(h.baseUrl, "POST", PATH, { key, body, headers });

  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs every agent on every task, all cells in parallel, each later round improving its own cell's answer; outputs per task keyed by agent (depth 2 for 8 calls)", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("grid");
    const latency = 600;
    const tasks = [`${marker} phones`, `${marker} laptops`];
    const res = await post({
      name: "Review grid",
      agent_completions: ["Tech", "Value"].map((n) => agent(n, { llm_args: { sim_latency_ms: latency } })),
      tasks,
      max_loops: 2,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectSdkType("BatchedGridWorkflowCompleteWorkflowResponse", res.body, "client/batched-grid-workflow");
    expect(res.body).to.include({ status: "success", name: "Review grid", description: "Every agent on every task" });

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(8);
    const firsts = calls.filter((c) => !inputOf(c).includes("previous answer"));
    expect(firsts).to.have.length(4);
    const cell = (name: string, task: string, round: 1 | 2) =>
      calls.filter((c) => callerOf(c) === name && inputOf(c).startsWith(task))[round - 1];
    for (const task of tasks) {
      for (const name of ["Tech", "Value"]) {
        const first = cell(name, task, 1);
        const second = cell(name, task, 2);
        expect(inputOf(first)).to.equal(task);
        // Round 2 reads its own cell's answer only.
        expect(inputOf(second)).to.include(conversationOf(first));
        for (const other of firsts.filter((c) => c !== first))
          expect(inputOf(second)).not.to.include(conversationOf(other));
        // The output is the cell's last answer.
        const t = tasks.indexOf(task);
        expect(res.body.outputs[t][name]).to.include(conversationOf(second));
      }
    }
    expect(res.body.outputs).to.have.length(2);
    expect(Object.keys(res.body.outputs[0]).sort()).to.deep.equal(["Tech", "Value"]);
    // Depth 2: the four cells overlapped (8 calls one after another would take 8 latencies).
    const [{ execution_time }] = await h.deps.ds.query("SELECT execution_time FROM runs WHERE id = $1", [
      res.body.job_id,
    ]);
    expect(execution_time).to.be.at.least(2 * latency * 0.95e-3);
    // One cell after another would take 8 latencies; the four cells overlap, so about 2 (a cold worker adds some).
    expect(execution_time).to.be.below(4 * latency * 1e-3);
    const arrivals = h.sim.journal.filter((e: any) => firsts.includes(e.body)).map((e: any) => Date.parse(e.at));
    expect(arrivals).to.have.length(4);
    expect(Math.max(...arrivals) - Math.min(...arrivals), "round-1 cells start together").to.be.below(latency / 2);
  });

  it("gives imgs[i] to every agent on tasks[i], and no image to a task without one", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("grid-imgs");
    const tasks = [`${marker} first`, `${marker} second`];
    const res = await post({ agent_completions: [agent("Looker"), agent("Seer")], tasks, imgs: [IMAGE(1)] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(4);
    for (const call of calls) {
      const first = inputOf(call).startsWith(tasks[0]);
      expect(imagesOf(call), `${callerOf(call)} on ${inputOf(call)}`).to.deep.equal(first ? [IMAGE(1)] : []);
    }
  });

  it("refuses with 400 before any LLM call: duplicate agent names, more images than tasks, too many cells (all at once)", async () => {
    const marker = uniqueMarker("grid-bad");
    const res = await post({
      agent_completions: [agent("Same"), agent("Same"), ...Array.from({ length: 98 }, (_, i) => agent(`A${i}`))],
      tasks: Array.from({ length: 11 }, (_, i) => `${marker} ${i}`),
      imgs: Array.from({ length: 12 }, (_, i) => IMAGE(i)),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.code).to.equal("INVALID_WORKFLOW");
    expect(res.body.detail).to.include("agent_completions[1] has the name of agent_completions[0] ('Same')");
    expect(res.body.detail).to.include("1100 cells");
    expect(res.body.detail).to.include("imgs has 12 images for 11 tasks");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("refuses malformed bodies with 422 listing every problem", async () => {
    const res = await post({ tasks: [], max_loops: 0, imgs: ["not an image"] });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const locs = res.body.detail.map((d: any) => d.loc.slice(1).join("."));
    expect(locs).to.include.members(["agent_completions", "tasks", "max_loops", "imgs.0"]);
  });

  it("with Prefer: respond-async answers 202, and GET /v1/jobs/{id} presents the same body", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("grid-async");
    const accepted = await post(
      { agent_completions: [agent("Only", { llm_args: { sim_latency_ms: 300 } })], tasks: [marker] },
      { prefer: "respond-async" },
    );
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const done = await eventually(async () => {
      const res = await request(h.baseUrl, "GET", `/v1/jobs/${accepted.body.job_id}`, { key });
      return ["queued", "running"].includes(res.body.status) ? undefined : res.body;
    }, 20_000);
    expect(done).to.include({ status: "success", job_id: accepted.body.job_id });
    expect(done.outputs).to.have.length(1);
    expect(done.outputs[0].Only).to.include(conversationOf(callsMentioning(h, marker)[0]));
    expectSdkType("BatchedGridWorkflowCompleteWorkflowResponse", done, "client/batched-grid-workflow");
  });

  it("through the SDK: client.client.batchedGridWorkflow.completeWorkflow", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("grid-sdk");
    const client = swarmsClient(h.baseUrl, key);
    const res = await client.client.batchedGridWorkflow.completeWorkflow({
      name: "sdk grid",
      description: "two by one",
      agent_completions: [
        { agent_name: "Left", model_name: "gpt-4o-mini" },
        { agent_name: "Right", model_name: "gpt-4o-mini" },
      ],
      tasks: [marker],
      max_loops: 1,
    });
    expectSdkType("BatchedGridWorkflowCompleteWorkflowResponse", res, "client/batched-grid-workflow");
    expect(res.outputs).to.be.an("array").with.length(1);
    expect(Object.keys((res.outputs as object[])[0]).sort()).to.deep.equal(["Left", "Right"]);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });
});
