import { expect } from "chai";
import { AppError } from "../../shared/errors";
import { answerCauseOf, failureCauseOf } from "../../shared/failure-cause";
import { LlmCallError } from "../../shared/llm/llm-error";
import { BudgetExceededError } from "../../workers/agents/call-allowance";
import { McpUnavailableError } from "../../workers/agents/mcp/mcp-errors";
import { AgentTurnError } from "../../workers/swarms/agent-turn-error";

const llm = (status: number | null) => new LlmCallError(`HTTP ${status}`, status, "openai", "gpt-4.1", false);

describe("failureCauseOf: whose fault a run's or a call's failure is", () => {
  it("a provider refusing the request as the caller made it is the caller's; refusing our key, its capacity or no answer the service's", () => {
    for (const status of [400, 404, 413, 422]) expect(failureCauseOf(llm(status)), String(status)).to.equal("caller");
    for (const status of [401, 403, 429, 500, 503, null])
      expect(failureCauseOf(llm(status)), String(status)).to.equal("service");
  });

  it("the caller's MCP server, its budget and its own input are the caller's; anything unknown the service's", () => {
    expect(failureCauseOf(new McpUnavailableError("https://tools.example", "connection refused"))).to.equal("caller");
    expect(failureCauseOf(new BudgetExceededError("The run reached its cost limit", "cost"))).to.equal("caller");
    expect(failureCauseOf(new AppError(400, "IMAGE_UNAVAILABLE", "An image URL could not be fetched"))).to.equal(
      "caller",
    );
    expect(failureCauseOf(new Error("connection reset"))).to.equal("service");
    expect(failureCauseOf("not even an error")).to.equal("service");
  });

  it("a swarm agent's failed turn is judged by the error that failed it", () => {
    expect(failureCauseOf(new AgentTurnError("Writer", llm(400)))).to.equal("caller");
    expect(failureCauseOf(new AgentTurnError("Writer", llm(503)))).to.equal("service");
    expect(failureCauseOf(new AgentTurnError("Writer", new Error("boom")))).to.equal("service");
  });
});

describe("answerCauseOf: whose fault an error answer is", () => {
  it("4xx (a client that left mid-request is a 400) and a wait that ran out are the caller's; a failed run's 500 is `run`; other 5xx ours", () => {
    expect(answerCauseOf({ status: 422, code: "VALIDATION_ERROR" })).to.equal("caller");
    expect(answerCauseOf({ status: 504, code: "RUN_TIMEOUT", reportsRun: true })).to.equal("caller");
    expect(answerCauseOf({ status: 400, code: "REQUEST_ABORTED" })).to.equal("caller");
    expect(answerCauseOf({ status: 500, code: "LLM_CALL_FAILED", reportsRun: true })).to.equal("run");
    expect(answerCauseOf({ status: 500, code: "INTERNAL_ERROR" })).to.equal("service");
    expect(answerCauseOf({ status: 503, code: "SERVICE_UNAVAILABLE" })).to.equal("service");
  });
});
