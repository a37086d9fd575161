import { expect } from "chai";
import { COLLABORATION_PROMPT } from "../../../workers/swarms/swarm-prompt";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, inputOf, postSwarm } from "../../helpers/swarm";
import { expectSdkType, swarmsClient } from "../../helpers/swarms-sdk";

const unique = (label: string) => `fields-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

const systemOf = (call: any) => String(call.messages[0].content);

/** Calls of a run made by `name` (its team note). */
const callsBy = (calls: any[], name: string) => calls.filter((c) => callerOf(c) === name);

describe("The hosted swarm fields", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  describe("multi_agent_collab_prompt", () => {
    it("by default every agent's system prompt carries the collaboration prompt; false leaves it out", async () => {
      const on = unique("collab-on");
      const off = unique("collab-off");
      const agents = [agent("Ann"), agent("Bob")];
      const first = await postSwarm(h, key, { swarm_type: "SequentialWorkflow", agents, task: on });
      const second = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents,
        task: off,
        multi_agent_collab_prompt: false,
      });
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      const withPrompt = callsMentioning(h, on);
      const without = callsMentioning(h, off);
      expect(withPrompt.map(callerOf)).to.deep.equal(["Ann", "Bob"]);
      expect(without.map(callerOf)).to.deep.equal(["Ann", "Bob"]);
      for (const call of withPrompt) expect(systemOf(call)).to.include(COLLABORATION_PROMPT);
      for (const call of without) expect(systemOf(call)).to.not.include("Collaboration:");
    });
  });

  describe("list_all_agents", () => {
    it("true lists every agent with its description in each agent's system prompt; by default none does", async () => {
      const listed = unique("list-on");
      const plain = unique("list-off");
      const agents = [agent("Ann"), agent("Bob"), agent("Cy")];
      const roster = "The team's agents:\n- Ann: Ann does its part\n- Bob: Bob does its part\n- Cy: Cy does its part";
      const first = await postSwarm(h, key, {
        swarm_type: "ConcurrentWorkflow",
        agents,
        task: listed,
        list_all_agents: true,
      });
      const second = await postSwarm(h, key, { swarm_type: "ConcurrentWorkflow", agents, task: plain });
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      const withRoster = callsMentioning(h, listed);
      expect(withRoster.map(callerOf)).to.have.members(["Ann", "Bob", "Cy"]);
      for (const call of withRoster) expect(systemOf(call)).to.include(roster);
      for (const call of callsMentioning(h, plain)) expect(systemOf(call)).to.not.include("The team's agents:");
    });
  });

  describe("heavy_swarm_max_loops", () => {
    it("runs that many HeavySwarm rounds; a later round's calls work on the previous round's report", async () => {
      const marker = unique("heavy-rounds");
      const res = await postSwarm(h, key, {
        swarm_type: "HeavySwarm",
        agents: [agent("Ann", { model_name: "gpt-4o-mini" }), agent("Bob", { model_name: "gpt-4o-mini" })],
        task: marker,
        heavy_swarm_max_loops: 2,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const round = ["Question Generator", "Ann", "Bob", "Synthesis"];
      expect(res.body.output.map((t: any) => t.role)).to.deep.equal([...round, ...round]);
      const calls = callsMentioning(h, marker);
      expect(calls.map(callerOf)).to.deep.equal([...round, ...round]);
      const firstReport = res.body.output[3].content as string;
      for (const call of calls.slice(0, 4)) expect(inputOf(call)).to.not.include("Report of the previous round");
      for (const call of calls.slice(4)) expect(inputOf(call), callerOf(call)).to.include(firstReport);
    });
  });

  describe("heavy_swarm_max_loops depth", () => {
    it("rounds run one after another, workers of a round in parallel: wall time R·(2+loops) calls, not every call", async () => {
      const marker = unique("heavy-depth");
      const latency = 400;
      const slow = { model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: latency } };
      const started = Date.now();
      const res = await postSwarm(h, key, {
        swarm_type: "HeavySwarm",
        // Internal agents borrow the first agent's llm_args, so every call takes `latency`.
        agents: [agent("Ann", slow), agent("Bob", slow)],
        task: marker,
        heavy_swarm_max_loops: 2,
      });
      const elapsed = Date.now() - started;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(callsMentioning(h, marker)).to.have.length(8);
      // Critical path: 2 rounds × (questions, workers, synthesis) = 6 calls; all 8 in a row would take 8.
      expect(elapsed).to.be.at.least(6 * latency);
      expect(elapsed).to.be.below(7.5 * latency);
    });
  });

  describe("heavy_swarm_variant", () => {
    it("medium runs Harper, Benjamin and Lucas and a Captain Swarm report; heavy runs fifteen specialists", async () => {
      const medium = unique("variant-medium");
      const heavy = unique("variant-heavy");
      const first = await postSwarm(h, key, { swarm_type: "HeavySwarm", task: medium, heavy_swarm_variant: "medium" });
      const second = await postSwarm(h, key, { swarm_type: "HeavySwarm", task: heavy, heavy_swarm_variant: "heavy" });
      expect([first.status, second.status], JSON.stringify(first.body)).to.deep.equal([200, 200]);
      expect(callsMentioning(h, medium).map(callerOf)).to.deep.equal([
        "Question Generator",
        "Harper",
        "Benjamin",
        "Lucas",
        "Captain Swarm",
      ]);
      expect(first.body.output.at(-1)).to.include({ role: "Synthesis", agent: "Captain Swarm" });
      const heavyCalls = callsMentioning(h, heavy);
      expect(heavyCalls).to.have.length(17);
      expect(heavyCalls[0].tools[0].function.parameters.properties.questions.required).to.have.length(15);
      expect(callerOf(heavyCalls[16])).to.equal("Captain Swarm");
    });

    it("a variant outside default, medium and heavy is a 422", async () => {
      const res = await postSwarm(h, key, { swarm_type: "HeavySwarm", task: "x", heavy_swarm_variant: "giant" });
      expect(res.status).to.equal(422);
      expect(JSON.stringify(res.body.detail)).to.include("heavy_swarm_variant");
    });
  });

  describe("director_model_name and director_settings (HierarchicalSwarm)", () => {
    it("the director's calls go to director_model_name with director_settings; the workers keep their own", async () => {
      const marker = unique("director");
      const res = await postSwarm(h, key, {
        swarm_type: "HierarchicalSwarm",
        agents: [agent("Ann", { model_name: "gpt-4o", temperature: 0.9 })],
        task: marker,
        director_model_name: "gpt-4.1-mini",
        director_settings: { temperature: 0.2, max_tokens: 1234, top_p: 0.5 },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      const director = callsBy(calls, "Director");
      expect(director).to.have.length(2);
      for (const call of director) {
        expect(call.model).to.equal("gpt-4.1-mini");
        expect([call.temperature, call.max_tokens, call.top_p]).to.deep.equal([0.2, 1234, 0.5]);
      }
      for (const call of callsBy(calls, "Ann")) {
        expect(call.model).to.equal("gpt-4o");
        expect([call.temperature, call.top_p]).to.deep.equal([0.9, undefined]);
      }
    });

    it("director_model_name also moves a request agent acting as director", async () => {
      const marker = unique("director-role");
      const res = await postSwarm(h, key, {
        swarm_type: "HierarchicalSwarm",
        agents: [agent("Boss", { role: "director", model_name: "gpt-4o" }), agent("Ann")],
        task: marker,
        director_model_name: "gpt-4.1-mini",
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const boss = callsBy(callsMentioning(h, marker), "Boss");
      expect(boss.map((c) => c.model)).to.deep.equal(["gpt-4.1-mini", "gpt-4.1-mini"]);
    });

    // An unservable director_model_name (chairman_model, council_judge_model_name) is a 400 before
    // the run is stored: test/helpers/worker-refusals.ts, on a deployment without the gateway.
    it("bad director_settings are a 422 naming each problem, before anything runs", async () => {
      const marker = unique("director-bad");
      const settings = await postSwarm(h, key, {
        swarm_type: "HierarchicalSwarm",
        agents: [agent("Ann")],
        task: marker,
        director_settings: { temperature: 5, max_tokens: 0, model: "gpt-4o" },
      });
      expect(settings.status).to.equal(422);
      const fields = JSON.stringify(settings.body.detail);
      for (const field of ["temperature", "max_tokens", "model"]) expect(fields).to.include(field);
      expect(callsMentioning(h, marker)).to.have.length(0);
    });
  });

  describe("council_judge_model_name (CouncilAsAJudge) and chairman_model (LLMCouncil)", () => {
    it("the Chair's final ruling goes to council_judge_model_name; the judges keep their models", async () => {
      const marker = unique("council-judge");
      const res = await postSwarm(h, key, {
        swarm_type: "CouncilAsAJudge",
        agents: [agent("Ann", { model_name: "gpt-4o" }), agent("Bob", { model_name: "gpt-4o" })],
        task: marker,
        council_judge_model_name: "gpt-4.1-mini",
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      expect(calls).to.have.length(3);
      expect(callerOf(calls[2]), "the Chair rules last").to.equal("Chair");
      expect(callsBy(calls, "Chair").map((c) => c.model)).to.deep.equal(["gpt-4.1-mini"]);
      expect([...callsBy(calls, "Ann"), ...callsBy(calls, "Bob")].map((c) => c.model)).to.deep.equal([
        "gpt-4o",
        "gpt-4o",
      ]);
    });

    it("the chairman's answer goes to chairman_model, internal or acting", async () => {
      for (const chair of [null, agent("Boss", { role: "chairman", model_name: "gpt-4o" })]) {
        const marker = unique("chairman");
        const res = await postSwarm(h, key, {
          swarm_type: "LLMCouncil",
          agents: [...(chair ? [chair] : []), agent("Ann", { model_name: "gpt-4o" }), agent("Bob")],
          task: marker,
          chairman_model: "gpt-4.1-mini",
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const calls = callsMentioning(h, marker);
        expect(callsBy(calls, chair ? "Boss" : "Chairman").map((c) => c.model)).to.deep.equal(["gpt-4.1-mini"]);
        expect(callsBy(calls, "Ann").map((c) => c.model)).to.deep.equal(["gpt-4o", "gpt-4o"]);
      }
    });
  });

  describe("through the hosted SDK", () => {
    it("swarms.run with director_model_name and director_settings answers a valid SwarmRunResponse", async () => {
      const marker = unique("sdk");
      const client = swarmsClient(h.baseUrl, key);
      // The SDK's SwarmSpec does not declare the fields the hosted docs add; the SDK sends them as given.
      const res = await client.swarms.run({
        swarm_type: "HierarchicalSwarm",
        task: marker,
        agents: [{ agent_name: "Ann", model_name: "gpt-4o-mini" }],
        director_model_name: "gpt-4.1-mini",
        director_settings: { temperature: 0.3 },
        list_all_agents: true,
      } as never);
      expectSdkType("SwarmRunResponse", res);
      const director = callsBy(callsMentioning(h, marker), "Director");
      expect(director.map((c) => [c.model, c.temperature])).to.deep.equal([
        ["gpt-4.1-mini", 0.3],
        ["gpt-4.1-mini", 0.3],
      ]);
    });
  });

  describe("a field on a type it does not apply to", () => {
    it("is accepted and changes nothing (as hosted clients send these fields with every type)", async () => {
      const marker = unique("elsewhere");
      const res = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        agents: [agent("Ann", { model_name: "gpt-4o" })],
        task: marker,
        director_model_name: "gpt-4.1-mini",
        chairman_model: "gpt-4.1-mini",
        council_judge_model_name: "gpt-4.1-mini",
        director_settings: { temperature: 0.1 },
        heavy_swarm_max_loops: 3,
        heavy_swarm_variant: "heavy",
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = callsMentioning(h, marker);
      // Ann is sent her own temperature (the default 0.5), never the director's.
      expect(calls.map((c) => [callerOf(c), c.model, c.temperature])).to.deep.equal([["Ann", "gpt-4o", 0.5]]);
    });
  });
});
