import { expect } from "chai";
import { mentionedAgents } from "../../workers/swarms/types/mentions";

/** The fastest of three timings of `work`, in ms: the least disturbed by a busy machine. */
function fastestMs(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    work();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return best;
}

/** One pass over every character of `text`: the floor any scan of it costs. */
function onePass(text: string): number {
  let ats = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 64) ats++;
  return ats;
}

describe("@mentions in a group chat", () => {
  it("finds the longest name after each @, in order of first mention, and names with @ are not mentionable", () => {
    const names = ["Critic", "Critic Jr", "support@acme", "Coder"];
    expect(mentionedAgents("@Critic Jr, @Coder, @Critic, @Critic Jr.", names)).to.deep.equal([1, 3, 0]);
    expect(mentionedAgents("@support@acme @Critics", names)).to.deep.equal([]);
    expect(mentionedAgents("@Критик and @Critic", ["Критик", "Critic"])).to.deep.equal([0, 1]);
  });

  // The task and the names are the client's: a megabyte task of @ against 100 names of 200
  // characters each took half a second of a swarm worker's event loop when every name was tried
  // at every @. The scan must stay within a small multiple of one pass over the text.
  for (const [label, text, names] of [
    ["a megabyte of @", "@".repeat(1_000_000), Array.from({ length: 100 }, (_, i) => `${"a".repeat(199)}${i}`)],
    [
      "each @ followed by a long prefix every name shares",
      `@${"a".repeat(199)}`.repeat(5_000),
      Array.from({ length: 100 }, (_, i) => `${"a".repeat(199)}${i}`),
    ],
    ["names made of @", "@".repeat(1_000_000), Array.from({ length: 100 }, (_, i) => `${"@".repeat(199)}${i}`)],
  ] as const) {
    it(`scans ${label} in time linear in the text`, () => {
      const floor = fastestMs(() => onePass(text));
      const scan = fastestMs(() => mentionedAgents(text, names));
      expect(scan).to.be.below(20 * floor + 20);
    });
  }
});
