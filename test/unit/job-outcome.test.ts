import { expect } from "chai";
import type { Run } from "../../shared/db/entities/run.entity";
import { jobOutcome, outcomeLogLine } from "../../shared/queues/job-outcome";

describe("a run's outcome on its job", () => {
  const base = { api_key_id: "0b7e0000-0000-4000-8000-00000000ab12", error: null };

  it("says the status, tokens and cost, and the start of the last agent's answer on one line", () => {
    const swarm = {
      ...base,
      status: "succeeded",
      request: { agents: [{ agent_name: "A" }] },
      usage: { total_tokens: 812, billing_info: { total_cost: 0.0321 } },
      // jsonb hands keys back reordered: the text is found by name, not position.
      output: {
        number_of_agents: 2,
        swarm_type: "SequentialWorkflow",
        output: [
          { role: "A", content: "first" },
          { role: "B", content: `last\n\n${"word ".repeat(60)}` },
        ],
      },
    } as unknown as Run;
    const outcome = jobOutcome(swarm);
    expect(outcome).to.deep.include({ status: "succeeded", tokens: 812, cost: 0.0321 });
    expect(outcome.output)
      .to.have.length(160)
      .and.match(/^last word word .*…$/);
    const agent = { ...base, status: "succeeded", request: {}, usage: { total_tokens: 5, total_cost: 0.001 } };
    expect(
      jobOutcome({ ...agent, output: { outputs: [{ role: "A", content: "hi" }] } } as unknown as Run),
    ).to.deep.equal({ status: "succeeded", tokens: 5, cost: 0.001, output: "hi" });
    const batch = { ...agent, output: { items: ["a", "b", "c"], succeeded: 2, failed: 1 } } as unknown as Run;
    expect(jobOutcome(batch).output).to.equal("2 of 3 items succeeded");
  });

  it("shows no output for the service's own runs and runs of marketplace prompts; a failed run's error", () => {
    const answered = { status: "succeeded", usage: null, error: null, output: { outputs: [{ content: "text" }] } };
    const own = { ...answered, api_key_id: null, request: {} } as unknown as Run;
    expect(jobOutcome(own)).to.deep.equal({ status: "succeeded" });
    const bought = {
      ...answered,
      api_key_id: base.api_key_id,
      request: { agents: [{ agent_name: "A" }, { agent_name: "B", handoffs: [{ marketplace_prompt_id: "p1" }] }] },
    } as unknown as Run;
    expect(jobOutcome(bought)).to.not.have.property("output");
    const failed = {
      ...base,
      status: "failed",
      output: null,
      request: {},
      usage: { total_tokens: 40, total_cost: 0.002 },
      error: { message: "Agent 'B' failed", code: "AGENT_FAILED" },
    } as unknown as Run;
    expect(jobOutcome(failed)).to.deep.equal({ status: "failed", tokens: 40, cost: 0.002, error: "Agent 'B' failed" });
    expect(outcomeLogLine(jobOutcome(failed))).to.equal("outcome status=failed tokens=40 cost=0.002");
  });
});
