import { expect } from "chai";
import { metricsAccess } from "../../shared/metrics/access";
import { modelLabel } from "../../shared/metrics/llm";
import { parseMetricsPortArg } from "../../workers/main";

describe("metrics parts", () => {
  describe("metricsAccess", () => {
    const token = "a-metrics-token-of-some-length";
    const open = { token: undefined, production: false, internalPort: false };

    it("with a token set, serves only `Bearer <token>`, whoever asks", () => {
      const policy = { ...open, token };
      expect(metricsAccess(policy, `Bearer ${token}`, "203.0.113.9")).to.equal("allowed");
      expect(metricsAccess(policy, `bearer ${token}`, "127.0.0.1")).to.equal("allowed");
      for (const header of [undefined, "", token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`])
        expect(metricsAccess(policy, header, "127.0.0.1"), String(header)).to.equal("unauthorized");
    });

    it("without a token: direct loopback clients only, none in production on the web, never through a proxy", () => {
      for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
        expect(metricsAccess(open, undefined, address), address).to.equal("allowed");
      for (const address of ["10.0.0.5", "::ffff:10.0.0.5", "192.168.1.2", undefined])
        expect(metricsAccess(open, undefined, address), String(address)).to.equal("forbidden");
      expect(metricsAccess({ ...open, production: true }, undefined, "127.0.0.1")).to.equal("hidden");
      // A worker's port: loopback clients in production too, nobody else however wide it binds.
      expect(metricsAccess({ ...open, production: true, internalPort: true }, undefined, "127.0.0.1")).to.equal(
        "allowed",
      );
      expect(metricsAccess({ ...open, production: true, internalPort: true }, undefined, "10.0.0.5")).to.equal(
        "forbidden",
      );
      // A proxy on this host makes every client loopback; its forwarding headers give it away.
      expect(metricsAccess(open, undefined, "127.0.0.1", true)).to.equal("forbidden");
    });
  });

  it("labels catalogue models by name (routing prefixes removed as providers see them) and anything else `other`", () => {
    expect(modelLabel("gpt-4.1")).to.equal("gpt-4.1");
    expect(modelLabel("claude-sonnet-4-20250514")).to.equal("claude-sonnet-4-20250514");
    expect(modelLabel("llama-3.3-70b-versatile")).to.equal("llama-3.3-70b-versatile");
    for (const free of ["gpt-4.1-my-secret-fine-tune", "user@example.com", "", "x".repeat(500)])
      expect(modelLabel(free)).to.equal("other");
  });

  it("reads --metrics-port (both spellings), falling back to WORKER_METRICS_PORT, and refuses a non-port", () => {
    expect(parseMetricsPortArg(["--queues", "agent"], 9464)).to.equal(9464);
    expect(parseMetricsPortArg(["--queues", "agent", "--metrics-port", "9465"], 9464)).to.equal(9465);
    expect(parseMetricsPortArg(["--metrics-port=0"], 9464)).to.equal(0);
    for (const bad of [["--metrics-port"], ["--metrics-port", "http"], ["--metrics-port=70000"], ["--metrics-port=-1"]])
      expect(() => parseMetricsPortArg(bad, 9464), bad.join(" ")).to.throw(/--metrics-port/);
  });
});
