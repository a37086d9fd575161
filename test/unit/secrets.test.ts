import { expect } from "chai";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import {
  REDACTED,
  revealRunSecrets,
  sealRunSecrets,
  withholdAgentSecrets,
  withholdSwarmSecrets,
} from "../../shared/secrets/run-secrets";
import { seal, SealedValueError, unseal } from "../../shared/secrets/sealed";

describe("sealed values", () => {
  const binding = { purpose: "agent-credential" as const, run: "run-1", user: "user-1", at: '["x"]' };

  it("seals with AES-256-GCM, differently each time, and opens only with the same binding", () => {
    const a = seal("token-1", binding);
    const b = seal("token-1", binding);
    expect(a)
      .to.match(/^enc:v2:/)
      .and.not.include("token-1");
    expect(a).to.not.equal(b);
    expect(unseal(a, binding)).to.equal("token-1");
    // Field order does not matter; every field's value does.
    expect(unseal(a, { at: '["x"]', user: "user-1", run: "run-1", purpose: "agent-credential" })).to.equal("token-1");
    for (const other of [
      { ...binding, purpose: "marketplace-prompt" as const },
      { ...binding, purpose: "launch-key" as const },
      { ...binding, run: "run-2" },
      { ...binding, user: "user-2" },
      { ...binding, at: '["y"]' },
    ]) {
      expect(() => unseal(a, other), JSON.stringify(other)).to.throw(SealedValueError);
    }
  });

  it("refuses tampered, truncated and foreign values without echoing them", () => {
    const a = seal("token-1", binding);
    const tampered = a.slice(0, -4) + (a.endsWith("AAAA") ? "BBBB" : "AAAA");
    const [iv, tag, data] = a.slice("enc:v2:".length).split(":");
    const shortTag = `enc:v2:${iv}:${tag.slice(0, 8)}:${data}`;
    for (const bad of [tampered, shortTag, "plain", "enc:v1:AAAA:BBBB:CCCC", "enc:v2:", `enc:v2:${iv}:${tag}`]) {
      expect(() => unseal(bad, binding))
        .to.throw(SealedValueError)
        .with.property("message")
        .that.does.not.include(bad.slice(7, 20) || "plain");
    }
  });
});

describe("secrets withheld from stored requests", () => {
  const run = { runId: "run-1", userId: "user-1" };
  const spec = {
    agent_name: "A",
    system_prompt: "own prompt",
    llm_args: { api_key: "sk-provider", top_p: 0.5, user: "visible", extra_headers: { "X-Org": "org-secret-header" } },
    mcp_config: {
      url: "http://x/mcp",
      authorization_token: "token-one-secret",
      headers: { "x-tenant": "tenant-secret" },
    },
    mcp_configs: { connections: [{ url: "http://y/mcp", authorization_token: "token-two-secret" }] },
    handoffs: [{ agent_name: "B", mcp_config: { url: "http://z/mcp", authorization_token: "token-three-secret" } }],
  } as unknown as AgentSpec;
  const secrets = [
    "sk-provider",
    "org-secret-header",
    "token-one-secret",
    "tenant-secret",
    "token-two-secret",
    "token-three-secret",
  ];

  it("replaces MCP tokens and headers and credential-like llm_args with the marker, handoffs included, and puts them back for the worker", () => {
    const split = withholdAgentSecrets({ agent_config: spec, task: "t" });
    const text = JSON.stringify(split.request);
    for (const secret of secrets) expect(text).to.not.include(secret);
    expect(split.request.agent_config.llm_args).to.deep.include({ api_key: REDACTED, top_p: 0.5, user: "visible" });
    expect(split.request.agent_config.system_prompt).to.equal("own prompt");
    const stored = sealRunSecrets(split.secrets, run)!;
    for (const secret of secrets) expect(JSON.stringify(stored)).to.not.include(secret);
    expect(revealRunSecrets({ ...run, request: split.request, sealed_secrets: stored })).to.deep.equal({
      agent_config: spec,
      task: "t",
    });
  });

  it("binds each secret to its run, owner and field: moved anywhere else it opens nothing", () => {
    const split = withholdSwarmSecrets({ agents: [spec, spec] });
    const stored = sealRunSecrets(split.secrets, run)!;
    expect(() =>
      revealRunSecrets({ runId: "run-2", userId: "user-1", request: split.request, sealed_secrets: stored }),
    ).to.throw(SealedValueError);
    expect(() =>
      revealRunSecrets({ runId: "run-1", userId: "user-2", request: split.request, sealed_secrets: stored }),
    ).to.throw(SealedValueError);
    // The first agent's key moved to the second agent's slot.
    const swapped = stored.map((s, i) => (i === 0 ? { ...s, path: ["agents", 1, ...s.path.slice(2)] } : s));
    expect(() => revealRunSecrets({ ...run, request: split.request, sealed_secrets: swapped })).to.throw(
      SealedValueError,
    );
  });

  it("opens nothing a client sent, whatever it looks like", () => {
    const sealedElsewhere = sealRunSecrets(
      [{ path: ["agent_config", "llm_args", "api_key"], purpose: "agent-credential", plain: "victim-key" }],
      { runId: "victim-run", userId: "victim" },
    )![0].sealed;
    const hostile = {
      agent_config: { ...spec, llm_args: { note: sealedElsewhere, api_key: sealedElsewhere } },
      task: sealedElsewhere,
    };
    const split = withholdAgentSecrets(hostile);
    const revealed = revealRunSecrets({
      ...run,
      request: split.request,
      sealed_secrets: sealRunSecrets(split.secrets, run),
    });
    expect(JSON.stringify(revealed)).to.not.include("victim-key");
    expect(revealed.agent_config.llm_args).to.deep.equal({ note: sealedElsewhere, api_key: sealedElsewhere });
    expect(revealed.task).to.equal(sealedElsewhere);
  });
});
