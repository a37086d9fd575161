import { expect } from "chai";
import { ConfigError, loadConfig } from "../../shared/config";

describe("configuration", () => {
  it("needs nothing from a fresh clone: every setting has a default", () => {
    const cfg = loadConfig({});
    expect(cfg.http.port).to.equal(8080);
    expect(cfg.http.platformPort).to.equal(8081);
    expect(cfg.llm.defaultModel).to.equal("gpt-4.1");
    expect(cfg.pricing).to.include({
      inputPerMTok: 6.5,
      outputPerMTok: 18.5,
      perAgent: 0.01,
      perImage: 0.25,
      perMcpCall: 0.1,
    });
    expect(cfg.llm.gateway).to.equal(null);
    expect(Object.isFrozen(cfg.pricing)).to.equal(true);
  });

  it("reports every problem at once", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "seventy", REDIS_URL: "http://nope", NIGHT_DISCOUNT: "2", NODE_ENV: "staging" });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "REDIS_URL", "NIGHT_DISCOUNT", "NODE_ENV"]) expect(problems).to.include(name);
  });

  it("gives the Meteora launcher 6–9 decimals and a USDC mint per cluster", () => {
    expect(loadConfig({}).solana.usdcMint).to.equal("EPjFWdd5AufqSSqeM2qTVu3mTJp8ixD2Cd4BBcUoTdDp");
    expect(() => loadConfig({ TOKEN_LAUNCHER: "meteora-dbc", TOKEN_DECIMALS: "2" })).to.throw(
      ConfigError,
      /TOKEN_DECIMALS/,
    );
    expect(loadConfig({ TOKEN_LAUNCHER: "token-2022", TOKEN_DECIMALS: "2" }).solana.decimals).to.equal(2);
    expect(() => loadConfig({ SOLANA_USDC_MINT: "not-a-key" })).to.throw(ConfigError, /SOLANA_USDC_MINT/);
    const devnet = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
    expect(loadConfig({ SOLANA_USDC_MINT: devnet }).solana.usdcMint).to.equal(devnet);
  });

  it("leaves review to moderators unless AUTO_APPROVE_MIN_SCORE is set, and counts trust from established raters", () => {
    const defaults = loadConfig({});
    expect(defaults.platform.moderation).to.deep.equal({ autoApproveMinScore: null });
    expect(defaults.platform.trust).to.deep.equal({ minRaterAgeHours: 72, minDistinctRaters: 3 });
    expect(loadConfig({ AUTO_APPROVE_MIN_SCORE: "" }).platform.moderation.autoApproveMinScore).to.equal(null);
    const set = loadConfig({
      AUTO_APPROVE_MIN_SCORE: "8.5",
      TRUST_MIN_RATER_AGE_HOURS: "0.5",
      TRUST_MIN_DISTINCT_RATERS: "5",
    }).platform;
    expect(set.moderation.autoApproveMinScore).to.equal(8.5);
    expect(set.trust).to.deep.equal({ minRaterAgeHours: 0.5, minDistinctRaters: 5 });
    for (const [name, value] of [
      ["AUTO_APPROVE_MIN_SCORE", "11"],
      ["AUTO_APPROVE_MIN_SCORE", "high"],
      ["TRUST_MIN_RATER_AGE_HOURS", "-1"],
      ["TRUST_MIN_DISTINCT_RATERS", "0"],
      ["TRUST_MIN_DISTINCT_RATERS", "1.5"],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).to.throw(ConfigError, new RegExp(name));
    }
  });

  it("requires an admin password and a secrets key in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).to.throw(
      ConfigError,
      /ADMIN_PASSWORD[\s\S]*SECRETS_KEY|SECRETS_KEY[\s\S]*ADMIN_PASSWORD/,
    );
    const cfg = loadConfig({
      NODE_ENV: "production",
      ADMIN_PASSWORD: "long-enough-secret",
      SECRETS_KEY: "k".repeat(32),
    });
    expect(cfg.admin.password).to.equal("long-enough-secret");
    expect(cfg.secretsKey).to.equal("k".repeat(32));
  });

  it("requires QUEUE_PREFIX to open with a Redis Cluster hash tag, so a queue's keys share one slot", () => {
    expect(loadConfig({}).queue.prefix).to.equal("{apiary}");
    expect(loadConfig({ QUEUE_PREFIX: "{shop}" }).queue.prefix).to.equal("{shop}");
    expect(loadConfig({ QUEUE_PREFIX: "eu:{apiary}" }).queue.prefix).to.equal("eu:{apiary}");
    for (const untagged of ["apiary", "{}apiary", "apiary}{"]) {
      expect(() => loadConfig({ QUEUE_PREFIX: untagged }), untagged).to.throw(
        ConfigError,
        /QUEUE_PREFIX" must start with a Redis Cluster hash tag/,
      );
    }
  });

  it("reads REDIS_CLUSTER_NODES as seed URLs sharing the first one's credentials and TLS, never echoing them", () => {
    expect(loadConfig({}).redisCluster).to.equal(null);
    const cluster = loadConfig({
      REDIS_CLUSTER_NODES: "rediss://app:s%40cret@node-1.internal:7000, rediss://node-2.internal",
    }).redisCluster;
    expect(cluster).to.deep.equal({
      nodes: [
        { host: "node-1.internal", port: 7000 },
        { host: "node-2.internal", port: 6379 },
      ],
      username: "app",
      password: "s@cret",
      tls: true,
    });
    let error: unknown;
    try {
      loadConfig({ REDIS_CLUSTER_NODES: "redis://:hunter22@ok:7000,http://:hunter22@nope:7001" });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).message)
      .to.include("REDIS_CLUSTER_NODES")
      .and.not.include("hunter22");
  });

  it("refuses a SESSION_JWT_SECRET under 32 bytes, counting bytes rather than characters", () => {
    expect(() => loadConfig({ SESSION_JWT_SECRET: "s".repeat(31) })).to.throw(
      ConfigError,
      /"SESSION_JWT_SECRET" must be at least 32 bytes/,
    );
    expect(() => loadConfig({ SESSION_JWT_SECRET: "é".repeat(15) })).to.throw(ConfigError, /SESSION_JWT_SECRET/); // 30 bytes
    expect(loadConfig({ SESSION_JWT_SECRET: "é".repeat(16) }).platform.session.jwtSecret).to.equal("é".repeat(16));
    expect(loadConfig({ SESSION_JWT_SECRET: "" }).platform.session.jwtSecret).to.equal(""); // no sessions at all
  });

  it("turns OpenID Connect sign-in on with OIDC_ISSUER, and refuses an issuer without a client id", () => {
    expect(loadConfig({}).platform.accounts.oidc).to.equal(null);
    expect(() => loadConfig({ OIDC_ISSUER: "https://id.example.com" })).to.throw(
      ConfigError,
      /OIDC_CLIENT_ID" is required when OIDC_ISSUER is set/,
    );
    const secret = "client-secret-not-to-show";
    const oidc = loadConfig({
      OIDC_ISSUER: "https://id.example.com/realms/corp",
      OIDC_CLIENT_ID: "apiary",
      OIDC_CLIENT_SECRET: secret,
      OIDC_SCOPES: "email groups",
    }).platform.accounts.oidc;
    expect(oidc).to.deep.include({
      clientId: "apiary",
      clientSecret: secret,
      scopes: "openid email groups",
      signUp: true,
    });
    expect(
      loadConfig({ OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "a", OIDC_SIGN_UP: "false" }).platform
        .accounts.oidc?.signUp,
    ).to.equal(false);
    expect(() => loadConfig({ OIDC_ISSUER: "ftp://id.example.com", OIDC_CLIENT_ID: "a" })).to.throw(
      ConfigError,
      /OIDC_ISSUER/,
    );
  });

  it("limits session tokens to SESSION_MAX_AGE_SECONDS (a day unless set)", () => {
    expect(loadConfig({}).platform.session.maxAgeSeconds).to.equal(86_400);
    expect(loadConfig({ SESSION_MAX_AGE_SECONDS: "900" }).platform.session.maxAgeSeconds).to.equal(900);
    expect(() => loadConfig({ SESSION_MAX_AGE_SECONDS: "0" })).to.throw(ConfigError, /SESSION_MAX_AGE_SECONDS/);
  });

  it("requires SESSION_JWT_ISSUER and SESSION_JWT_AUDIENCE in production once session tokens are accepted", () => {
    const production = { NODE_ENV: "production", ADMIN_PASSWORD: "long-enough-secret", SECRETS_KEY: "k".repeat(32) };
    const secret = "s".repeat(32);
    for (const sessions of [
      { SESSION_JWT_SECRET: secret },
      { SESSION_JWKS_URL: "https://id.example.com/.well-known/jwks.json" },
    ]) {
      let error: unknown;
      try {
        loadConfig({ ...production, ...sessions });
      } catch (err) {
        error = err;
      }
      expect(error, JSON.stringify(sessions)).to.be.instanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join("\n");
      expect(problems)
        .to.include('"SESSION_JWT_ISSUER" is required in production')
        .and.include('"SESSION_JWT_AUDIENCE" is required in production');
    }
    const claims = { SESSION_JWT_ISSUER: "https://id.example.com", SESSION_JWT_AUDIENCE: "apiary" };
    expect(loadConfig({ ...production, SESSION_JWT_SECRET: secret, ...claims }).platform.session).to.include({
      issuer: "https://id.example.com",
      audience: "apiary",
    });
    expect(loadConfig(production).platform.session.jwtSecret).to.equal(""); // API keys only: nothing to require
    expect(loadConfig({ SESSION_JWT_SECRET: secret }).platform.session.issuer).to.equal(""); // development
  });
});
