import { expect } from "chai";
import { useCasesObject } from "../../api/marketplace/prompt.presenter";
import { isoWithoutZone } from "../../api/marketplace/timestamp";
import {
  applyMarketplacePrompts,
  marketplacePromptIds,
  type MarketplacePromptLookup,
} from "../../api/marketplace/run-prompts";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { REDACTED, revealRunSecrets, sealRunSecrets, withholdAgentSecrets } from "../../shared/secrets/run-secrets";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const lookup: MarketplacePromptLookup = new Map([
  [A, { id: A, user_id: "seller", prompt: "Prompt A", status: "approved" as const }],
  [B, { id: B, user_id: "seller", prompt: "Prompt B", status: "approved" as const }],
]);
const spec = (extra: Record<string, unknown>) => ({ agent_name: "x", ...extra }) as unknown as AgentSpec;

describe("marketplace prompts in agent specs", () => {
  it("collects each id once, handoffs included, ignoring empty ones", () => {
    const specs = [
      spec({
        marketplace_prompt_id: A,
        handoffs: [spec({ marketplace_prompt_id: B }), spec({ marketplace_prompt_id: A })],
      }),
      spec({ marketplace_prompt_id: "" }),
      spec({}),
    ];
    expect(marketplacePromptIds(specs)).to.deep.equal([A, B]);
  });

  it("puts each prompt in place of system_prompt, handoffs too; the stored request withholds it and the worker gets exactly that", () => {
    const [applied] = applyMarketplacePrompts(
      [
        spec({
          system_prompt: "own",
          marketplace_prompt_id: A,
          handoffs: [spec({ marketplace_prompt_id: B.toUpperCase() })],
        }),
      ],
      lookup,
      "buyer",
    );
    const handoff = (applied.handoffs as AgentSpec[])[0];
    expect(handoff.marketplace_prompt_id).to.equal(B);
    const { request, secrets } = withholdAgentSecrets({ agent_config: applied });
    expect(JSON.stringify(request)).not.to.include("Prompt A").and.not.include("Prompt B").and.not.include('"own"');
    expect(request.agent_config.system_prompt).to.equal(REDACTED);
    const run = { runId: "run-1", userId: "buyer" };
    const opened = revealRunSecrets({ ...run, request, sealed_secrets: sealRunSecrets(secrets, run) }).agent_config;
    expect(opened.system_prompt).to.equal("Prompt A");
    expect((opened.handoffs as AgentSpec[])[0].system_prompt).to.equal("Prompt B");
  });

  it("leaves agents without an id as they are, and a client's own text that looks sealed is never opened", () => {
    const plain = [spec({ system_prompt: "own" })];
    expect(applyMarketplacePrompts(plain, lookup, "buyer")).to.equal(plain);
    const forged = { agent_config: spec({ system_prompt: "enc:v2:AAAA:BBBB:CCCC" }) };
    const { request, secrets } = withholdAgentSecrets(forged);
    expect(secrets).to.deep.equal([]);
    expect(
      revealRunSecrets({ runId: "r", userId: "u", request, sealed_secrets: null }).agent_config.system_prompt,
    ).to.equal("enc:v2:AAAA:BBBB:CCCC");
  });

  it("refuses with one 400 naming every unusable id", () => {
    const missing = "33333333-3333-4333-8333-333333333333";
    expect(() =>
      applyMarketplacePrompts(
        [
          spec({ marketplace_prompt_id: missing }),
          spec({ marketplace_prompt_id: "nope" }),
          spec({ marketplace_prompt_id: A }),
        ],
        lookup,
        "buyer",
      ),
    )
      .to.throw(
        /Unknown marketplace_prompt_id '33333333-3333-4333-8333-333333333333'.*; Unknown marketplace_prompt_id 'nope'/,
      )
      .with.property("status", 400);
  });

  it("presents use cases as title → description and timestamps without a zone", () => {
    expect(
      useCasesObject([
        { title: "a", description: "1" },
        { title: "b", description: "2" },
        { title: "a", description: "3" },
        "junk",
      ]),
    ).to.deep.equal({ a: "1\n\n3", b: "2" });
    expect(useCasesObject(null)).to.deep.equal({});
    expect(isoWithoutZone(new Date("2025-03-04T05:06:07.089Z"))).to.equal("2025-03-04T05:06:07.089");
  });
});
