import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { captureLogs, type CapturedLogs } from "../helpers/log-capture";

/**
 * One request's log lines and the worker's lines for its run share the run id and the request id,
 * so an operator can follow a request from the API into the worker with one search.
 */
describe("log correlation between a request and its run", () => {
  let h: Harness;
  let logs: CapturedLogs;
  before(async () => {
    h = await harness();
  });
  afterEach(() => logs?.stop());

  it("puts the run id and the caller's X-Request-Id on the request's lines and on the worker's", async () => {
    const { key } = await h.newKey();
    const requestId = `corr-${randomUUID()}`;
    logs = captureLogs();
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { "x-request-id": requestId },
      body: { agent_config: { agent_name: "Logger", model_name: "gpt-4.1" }, task: "Name a bee." },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get("x-request-id")).to.equal(requestId);
    const [{ id: runId }] = await h.deps.ds.query(`SELECT id FROM runs WHERE job_id = $1`, [res.body.job_id]);

    // The worker writes its last line after announcing the run: wait for it, with a deadline.
    const workerLines = await eventually(async () => {
      const lines = logs.lines.filter((l) => l.jobId === runId);
      return lines.some((l) => l.msg === "run succeeded") ? lines : undefined;
    });
    const requestLine = logs.lines.find((l) => l.msg === "request" && l.path === "/v1/agent/completions");
    expect(requestLine, "the request's closing line").to.include({ reqId: requestId, runId, status: 200 });
    for (const line of workerLines) expect(line, String(line.msg)).to.include({ reqId: requestId, runId });
    // Another request's lines never carry this one's ids.
    const strangers = logs.lines.filter((l) => l.reqId === requestId && l.runId !== runId);
    expect(strangers).to.deep.equal([]);
  });

  it("ignores a request id that is not a short safe string, and gives the request its own", async () => {
    const { key } = await h.newKey();
    logs = captureLogs();
    const res = await request(h.baseUrl, "GET", "/v1/rate/limits", {
      key,
      headers: { "x-request-id": `bad id ${"x".repeat(200)}` },
    });
    expect(res.status).to.equal(200);
    const given = res.headers.get("x-request-id")!;
    expect(given).to.match(/^[0-9a-f-]{36}$/);
    const line = logs.lines.find((l) => l.msg === "request" && l.path === "/v1/rate/limits");
    expect(line).to.include({ reqId: given });
  });
});
