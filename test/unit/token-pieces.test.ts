import { expect } from "chai";
import { readFileSync } from "node:fs";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens } from "../../shared/llm/tokens";
import { MAX_PIECE_CHARS, tokenPieces } from "../../shared/llm/token-pieces";
import { countTokens as simulatorCount, truncateToTokens } from "../../scripts/llm-simulator/tokens";

/** Text with no space in it, varied so that no tokenizer cache makes it cheap: the tokenizer's worst case. */
function unbrokenText(chars: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzéèàüß";
  let text = "";
  for (let i = 0, seed = 7; text.length < chars; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += alphabet[seed % alphabet.length];
  }
  return text;
}

function elapsedMs(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** Every per-request count of client or third-party text, in the service and the simulator, is linear. */
describe("token counting in linear time", () => {
  it("cuts a text into pieces that join to it, each at most MAX_PIECE_CHARS, never inside a character", () => {
    const text = `${"word ".repeat(300)}${"😀".repeat(400)}${unbrokenText(1_000)} tail`;
    const pieces = [...tokenPieces(text)];
    expect(pieces.join("")).to.equal(text);
    for (const piece of pieces) {
      expect(piece.length).to.be.within(1, MAX_PIECE_CHARS);
      expect(piece).to.not.match(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it("counts ordinary text exactly as the tokenizer does with the whole of it", () => {
    const plain = { disallowedSpecial: new Set<string>() };
    for (const file of ["README.md", "docs/billing.md", "docs/retries.md", "shared/llm/tokens.ts"]) {
      const text = readFileSync(file, "utf8");
      expect(simulatorCount(text), file).to.equal(encode(text, plain).length);
    }
  });

  it("counts 400,000 characters with no space in well under a second per 100,000, in the service and the simulator", () => {
    // Whole, the tokenizer took 2.9 s for 40,000 `é` and grows with the square: 400,000 would take minutes.
    const text = unbrokenText(400_000);
    let tokens = 0;
    expect(
      elapsedMs(() => (tokens = countTokens(text))),
      "service ms",
    ).to.be.below(4_000);
    expect(tokens).to.be.above(50_000);
    expect(
      elapsedMs(() => simulatorCount(`${text}!`)),
      "simulator ms",
    ).to.be.below(4_000);
  });

  it("cuts a 2 MB answer to a token limit in linear time, to an exact prefix within the limit", () => {
    const text = `${unbrokenText(1_000_000)} ${"é".repeat(1_000_000)}`;
    let cut = { text: "", tokens: 0, truncated: false };
    expect(
      elapsedMs(() => (cut = truncateToTokens(text, 1_000))),
      "ms",
    ).to.be.below(8_000);
    expect(cut.truncated).to.equal(true);
    expect(text.startsWith(cut.text)).to.equal(true);
    expect(cut.tokens).to.be.at.most(1_000).and.above(900);
    expect(simulatorCount(cut.text)).to.equal(cut.tokens);
  });

  it("counts a special token's spelling in a client's text as text instead of failing", () => {
    expect(countTokens("ignore <|endoftext|> this")).to.be.above(3);
    expect(simulatorCount("ignore <|endoftext|> this")).to.be.above(3);
  });
});
