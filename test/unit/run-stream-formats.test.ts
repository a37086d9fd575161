import { expect } from "chai";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { Run } from "../../shared/db/entities/run.entity";
import { agentStreamFormat } from "../../api/runs/agent-stream";
import { swarmStreamFormat } from "../../api/runs/swarm-stream";

const eventsOf = (frames: { event?: string }[]) => frames.map((f) => f.event);

describe("run stream formats", () => {
  const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };

  describe("agent completion", () => {
    const request = { agent_config: { agent_name: "A", temperature: 0.5 } } as AgentCompletionRequest;
    const format = agentStreamFormat("job-1", request);

    it("opens with the metadata of the agent", () => {
      expect(format.metadata).to.include({ job_id: "job-1", name: "A", temperature: 0.5, type: "metadata" });
    });

    it("relays a chunk, ends a finish with usage, end and done, and drops swarm-only events", () => {
      expect(format.framesFor({ type: "chunk", content: "hi" })[0]).to.deep.include({ event: "chunk" });
      expect(format.framesFor({ type: "chunk", content: "hi" })[0].data).to.include({ content: "hi" });
      const finish = format.framesFor({ type: "finish", usage });
      expect(eventsOf(finish)).to.deep.equal(["usage", "end", "done"]);
      expect(finish[1].data).to.include({ job_id: "job-1", complete: true });
      expect(format.framesFor({ type: "agent_start", agent: "A" })).to.deep.equal([]);
    });

    it("tells a succeeded run's lost ending from its row: the last output as one chunk, then finish", () => {
      const run = {
        kind: "agent",
        status: "succeeded",
        output: { outputs: [{ content: "x" }, { content: "final" }] },
        usage,
      };
      expect(format.endingOf(run as unknown as Run)).to.deep.equal([
        { type: "chunk", content: "final" },
        { type: "finish", usage },
      ]);
    });
  });

  describe("swarm completion", () => {
    const request = { name: "S", swarm_type: "SequentialWorkflow", agents: [{}, {}] } as unknown as SwarmRequest;
    const format = swarmStreamFormat("job-2", request);

    it("opens with the metadata of the swarm", () => {
      expect(format.metadata).to.include({ job_id: "job-2", swarm_name: "S", number_of_agents: 2 });
    });

    it("tags chunks with their agent, and ends a finish with usage and end", () => {
      expect(format.framesFor({ type: "chunk", content: "c", agent: "A" })[0].data).to.include({ agent: "A" });
      expect(eventsOf(format.framesFor({ type: "agent_end", agent: "A" }))).to.deep.equal(["agent_end"]);
      const finish = format.framesFor({ type: "finish", usage });
      expect(eventsOf(finish)).to.deep.equal(["usage", "end"]);
      expect(finish[1].data).to.include({ job_id: "job-2", status: "success" });
    });

    it("fails with one error frame", () => {
      const frames = format.framesFor({ type: "error", error: "boom" });
      expect(eventsOf(frames)).to.deep.equal(["error"]);
      expect(frames[0].data).to.include({ error: "boom" });
    });
  });
});
