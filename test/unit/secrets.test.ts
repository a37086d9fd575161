import { expect } from "chai";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { sealAgentSecrets, unsealLlmArgs, unsealMcpConfig } from "../../shared/secrets/agent-secrets";
import { isSealed, sealSecret, unsealSecret } from "../../shared/secrets/sealed";

describe("secrets stored with runs", () => {
  it("seals with AES-256-GCM, differently each time, and unseals", () => {
    const a = sealSecret("token-1");
    const b = sealSecret("token-1");
    expect(a).to.match(/^enc:v1:/).and.not.include("token-1");
    expect(a).to.not.equal(b);
    expect(unsealSecret(a)).to.equal("token-1");
    expect(unsealSecret("plain")).to.equal("plain");
    const tampered = a.slice(0, -4) + (a.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => unsealSecret(tampered)).to.throw();
  });

  it("seals an agent's MCP tokens and headers and credential-like llm_args, handoffs included", () => {
    const spec = {
      agent_name: "A",
      llm_args: { api_key: "sk-provider", top_p: 0.5 },
      mcp_config: { url: "http://x/mcp", authorization_token: "token-one-secret", headers: { "x-tenant": "bees" } },
      mcp_configs: { connections: [{ url: "http://y/mcp", authorization_token: "token-two-secret" }] },
      handoffs: [{ agent_name: "B", mcp_config: { url: "http://z/mcp", authorization_token: "token-three-secret" } }],
    } as unknown as AgentSpec;
    const sealed = sealAgentSecrets(spec);
    const text = JSON.stringify(sealed);
    // Secrets long enough that random ciphertext cannot contain them by chance (a two-letter one
    // turned up in the base64 about one run in six).
    for (const secret of ["sk-provider", "token-one-secret", '"bees"', "token-two-secret", "token-three-secret"]) expect(text).to.not.include(secret);
    expect(sealed.llm_args!.top_p).to.equal(0.5);
    expect(isSealed(sealed.llm_args!.api_key)).to.equal(true);
    expect(unsealMcpConfig(sealed.mcp_config!)).to.deep.equal(spec.mcp_config);
    expect(unsealLlmArgs(sealed.llm_args)).to.deep.equal(spec.llm_args);
  });
});
