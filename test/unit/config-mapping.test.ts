import { expect } from "chai";
import { ConfigError, loadConfig } from "../../shared/config";

/** What the domain mappings derive, beyond the values read as they are (config.test.ts covers the rules). */
describe("configuration mapping", () => {
  it("derives the public addresses from the ports, and image URLs from the platform's address", () => {
    const defaults = loadConfig({ PORT: "9000", PLATFORM_PORT: "9001" });
    expect(defaults.http).to.include({
      publicBaseUrl: "http://localhost:9000",
      platformUrl: "http://localhost:9001",
    });
    expect(defaults.storage).to.deep.equal({
      dir: ".data/uploads",
      publicUrl: "http://localhost:9001/uploads",
      s3: null,
    });
    const set = loadConfig({ PUBLIC_BASE_URL: "https://api.example", PLATFORM_URL: "https://app.example" });
    expect(set.http).to.include({ publicBaseUrl: "https://api.example", platformUrl: "https://app.example" });
    expect(set.storage.publicUrl).to.equal("https://app.example/uploads");
    expect(loadConfig({ STORAGE_PUBLIC_URL: "https://cdn.example/i" }).storage.publicUrl).to.equal(
      "https://cdn.example/i",
    );
  });

  it("stores images in S3 only when both endpoint and bucket are set", () => {
    expect(loadConfig({ S3_ENDPOINT: "http://s3.local" }).storage.s3).to.equal(null);
    expect(loadConfig({ S3_BUCKET: "images" }).storage.s3).to.equal(null);
    expect(loadConfig({ S3_ENDPOINT: "http://s3.local", S3_BUCKET: "images" }).storage.s3).to.deep.equal({
      endpoint: "http://s3.local",
      bucket: "images",
      region: "us-east-1",
      accessKeyId: "",
      secretAccessKey: "",
      publicUrl: "http://s3.local/images",
    });
    const keyed = loadConfig({
      S3_ENDPOINT: "http://s3.local",
      S3_BUCKET: "images",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://img.example",
    }).storage.s3;
    expect(keyed).to.include({ accessKeyId: "id", secretAccessKey: "secret", publicUrl: "https://img.example" });
  });

  it("gives a gateway without a key the key `none`, and local model servers their fixed keys", () => {
    const llm = loadConfig({ LLM_BASE_URL: "http://127.0.0.1:9999/v1" }).llm;
    expect(llm.gateway).to.deep.equal({ baseUrl: "http://127.0.0.1:9999/v1", apiKey: "none" });
    expect(llm.providers.ollama).to.deep.equal({ apiKey: "ollama", baseUrl: "http://127.0.0.1:11434/v1" });
    expect(llm.providers.openai).to.deep.equal({ apiKey: "", baseUrl: "https://api.openai.com/v1" });
  });

  it("leaves unset optional values null, or empty where callers take a string", () => {
    const cfg = loadConfig({});
    expect(cfg.solana.wsUrl).to.equal(null);
    expect(cfg.prices.fixedUsd).to.equal(null);
    expect(cfg.platform.signInUrl).to.equal("");
    expect(cfg.platform.session.jwksUrl).to.equal("");
    expect(loadConfig({ PRICE_FIXED_USD: "150.5" }).prices.fixedUsd).to.equal(150.5);
  });

  it("takes a 16-character SECRETS_KEY in development but wants 32 in production", () => {
    expect(loadConfig({ SECRETS_KEY: "k".repeat(16) }).secretsKey).to.equal("k".repeat(16));
    expect(() => loadConfig({ SECRETS_KEY: "k".repeat(15) })).to.throw(ConfigError, /SECRETS_KEY/);
    const production = { NODE_ENV: "production", ADMIN_PASSWORD: "long-enough-secret" };
    expect(() => loadConfig({ ...production, SECRETS_KEY: "k".repeat(31) })).to.throw(
      ConfigError,
      /"SECRETS_KEY" length must be at least 32/,
    );
    expect(() => loadConfig({ ...production, SECRETS_KEY: "k".repeat(32), ADMIN_PASSWORD: "short" })).to.throw(
      ConfigError,
      /"ADMIN_PASSWORD" length must be at least 8/,
    );
  });

  it("takes a metrics token of 32 characters or more, and reads an empty one as unset", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "x".repeat(31) })).to.throw(ConfigError, /METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: "x".repeat(32) }).metrics.token).to.equal("x".repeat(32));
    expect(loadConfig({ METRICS_TOKEN: "" }).metrics.token).to.equal(undefined);
  });
});
