import { expect } from "chai";
import { harness, type Harness } from "../../helpers/harness";
import { postReasoning } from "../../helpers/reasoning";
import { uniqueMarker } from "../../helpers/swarm";

describe("reasoning agents: every output_type", () => {
  let h: Harness;
  let key: string;
  let marker: string;
  const verdict = 'Sound: "a < b" & fair. Score: 8';
  const escapedVerdict = "Sound: &quot;a &lt; b&quot; &amp; fair. Score: 8";
  const run = async (output_type: string) => {
    const res = await postReasoning(h, key, {
      agent_name: "Judge",
      swarm_type: "AgentJudge",
      task: marker,
      output_type,
      llm_args: { sim_reply: verdict },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.outputs).to.deep.equal(res.body.output);
    return res.body.output;
  };
  const all = () => [
    { role: "user", content: marker },
    { role: "Judge", content: verdict },
  ];

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    marker = uniqueMarker("output-types");
  });

  it("dict-all-except-first (the default) lists every turn after the task", async () => {
    expect(await run("dict-all-except-first")).to.deep.equal(all().slice(1));
    const res = await postReasoning(h, key, {
      swarm_type: "AgentJudge",
      task: marker,
      llm_args: { sim_reply: verdict },
    });
    expect(res.body.output).to.deep.equal([{ role: "reasoning-agent", content: verdict }]);
  });

  it("dict, dictionary and basemodel list every turn, the task first", async () => {
    expect(await run("dict")).to.deep.equal(all());
    expect(await run("dictionary")).to.deep.equal(all());
    expect(await run("basemodel")).to.deep.equal({ messages: all() });
  });

  it("list gives `role: content` strings; string, str and all one text; str-all-except-first without the task", async () => {
    expect(await run("list")).to.deep.equal([`user: ${marker}`, `Judge: ${verdict}`]);
    const text = `user: ${marker}\n\nJudge: ${verdict}`;
    for (const type of ["string", "str", "all"]) expect(await run(type), type).to.equal(text);
    expect(await run("str-all-except-first")).to.equal(`Judge: ${verdict}`);
  });

  it("final and last give the answer's text; list-final it in a list; dict-final its turn", async () => {
    expect(await run("final")).to.equal(verdict);
    expect(await run("last")).to.equal(verdict);
    expect(await run("list-final")).to.deep.equal([verdict]);
    expect(await run("dict-final")).to.deep.equal({ role: "Judge", content: verdict });
  });

  it("json, yaml and xml serialise every turn (xml escaped)", async () => {
    expect(JSON.parse(await run("json"))).to.deep.equal(all());
    expect(await run("yaml")).to.equal(
      `- role: "user"\n  content: ${JSON.stringify(marker)}\n- role: "Judge"\n  content: ${JSON.stringify(verdict)}\n`,
    );
    expect(await run("xml")).to.equal(
      `<conversation><message><role>user</role><content>${marker}</content></message><message><role>Judge</role><content>${escapedVerdict}</content></message></conversation>`,
    );
  });
});
