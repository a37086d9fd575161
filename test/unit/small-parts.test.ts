import { expect } from "chai";
import { parsePrefer } from "../../api/http/prefer-header";
import { presentedKey } from "../../api/http/auth";
import { generateApiKey, hashApiKey, looksLikeApiKey } from "../../shared/auth/api-keys";
import { loadConfig } from "../../shared/config";
import { scrubSecrets } from "../../shared/llm/llm-error";
import { llmSocketsPerHost } from "../../shared/llm/node-http-fetch";
import { historyMessages, imageUrl } from "../../workers/agents/messages";
import { parseQueuesArg } from "../../workers/main";
import { assertHandlersFor } from "../../workers/worker-pool";
import { handlers } from "../../workers/handlers";

describe("small parts", () => {
  it("opens as many LLM connections per endpoint as the process may have LLM calls in flight", () => {
    expect(llmSocketsPerHost(loadConfig({}))).to.equal(6_000);
    expect(llmSocketsPerHost(loadConfig({ LLM_MAX_IN_FLIGHT: "2000", WORKER_CONCURRENCY_SWARM: "10" }))).to.equal(
      2_000,
    );
  });

  it("API keys are sk- and 64 hex, distinct, stored as SHA-256", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).to.match(/^sk-[0-9a-f]{64}$/);
    expect(a).to.not.equal(b);
    expect(hashApiKey(a))
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.include(a.slice(3));
    expect(looksLikeApiKey("sk-short")).to.equal(false);
  });

  it("reads the key from x-api-key or a Bearer header", () => {
    expect(presentedKey({ "x-api-key": " sk-1 " })).to.equal("sk-1");
    expect(presentedKey({ authorization: "Bearer sk-2" })).to.equal("sk-2");
    expect(presentedKey({ authorization: "Basic abc" })).to.equal("");
    expect(presentedKey({})).to.equal("");
  });

  it("parses RFC 7240 Prefer", () => {
    expect(parsePrefer("respond-async")).to.deep.equal({ respondAsync: true, waitMs: null });
    expect(parsePrefer("wait=2.5, handling=lenient")).to.deep.equal({ respondAsync: false, waitMs: 2500 });
    expect(parsePrefer(undefined)).to.deep.equal({ respondAsync: false, waitMs: null });
  });

  it("scrubs credentials from provider error text", () => {
    expect(scrubSecrets("Incorrect API key provided: sk-proj-abcdef123456")).to.equal(
      "Incorrect API key provided: [redacted]",
    );
    expect(scrubSecrets("header Bearer abc.def")).to.equal("header Bearer [redacted]");
  });

  it("turns history and images into provider messages", () => {
    expect(
      historyMessages([
        { role: "user", content: "hi" },
        { role: "bot", content: { a: 1 } },
      ]),
    ).to.deep.equal([
      { role: "user", content: "hi" },
      { role: "user", content: '{"a":1}' },
    ]);
    expect(historyMessages({ messages: [{ role: "assistant", content: "x" }] })).to.deep.equal([
      { role: "assistant", content: "x" },
    ]);
    expect(imageUrl("https://x/y.png")).to.equal("https://x/y.png");
    expect(imageUrl("/9j/4AAQ")).to.equal("data:image/jpeg;base64,/9j/4AAQ");
  });

  it("workers take their queues from the command line and refuse job names without a handler", () => {
    expect(parseQueuesArg(["--queues", "agent,swarm"])).to.deep.equal(["agent", "swarm"]);
    expect(parseQueuesArg(["--queues=chain"])).to.deep.equal(["chain"]);
    expect(() => parseQueuesArg(["--queues", "nope"])).to.throw(/Unknown queue/);
    expect(() => assertHandlersFor(["agent"], {})).to.throw(/No handler for job name\(s\): agent-run/);
    expect(() => assertHandlersFor(["agent"], handlers)).to.not.throw();
  });
});
