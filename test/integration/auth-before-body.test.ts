import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { sessionUser } from "../helpers/platform-fixtures";
import { serveApp, type ServedApp } from "../helpers/platform-app";
import { answerWhileBodyWithheld } from "../helpers/withheld-body";

/** Well under `BODY_LIMIT` (10 MB), so a server that reads bodies first would wait for all of it. */
const SIX_MB = 6 * 1024 * 1024;
const FIRST_BYTES = `{"task": "${"x".repeat(16 * 1024)}`;

const V1_UNAUTHENTICATED = {
  detail: "Invalid or missing API key",
  code: "AUTHENTICATION_FAILED",
  status_code: 401,
  how_to_get_key: "http://localhost:8081/platform/api-keys",
};

/**
 * A request is refused for its credentials (or its rate limit) before its body is read: each
 * request below announces a multi-megabyte body, sends its first 16 KB and holds the rest back.
 * The refusal arriving at all shows the server did not wait for the body; code that parses first
 * never answers and the helper fails after 5 s. Authenticated requests still have their bodies read.
 */
describe("refusing before reading the body", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  describe("execution API (/v1)", () => {
    const json = { "content-type": "application/json" };

    for (const [label, headers, declaredBytes] of [
      ["no key, a declared length", json, SIX_MB],
      ["a wrong key, chunked", { ...json, "x-api-key": `sk-${"0".repeat(64)}` }, undefined],
      ["a wrong bearer, a declared length", { ...json, authorization: `Bearer sk-${"1".repeat(64)}` }, SIX_MB],
    ] as const) {
      it(`answers the documented 401 with ${label}, without the body`, async () => {
        const res = await answerWhileBodyWithheld(h.baseUrl, {
          path: "/v1/agent/completions",
          headers,
          declaredBytes,
          firstBytes: FIRST_BYTES,
        });
        expect(res.status).to.equal(401);
        expect(res.json()).to.deep.equal(V1_UNAUTHENTICATED);
      });
    }

    it("answers 401 to a client that sends the whole body anyway", async () => {
      const res = await request(h.baseUrl, "POST", "/v1/agent/completions", { body: { task: "x".repeat(SIX_MB) } });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(V1_UNAUTHENTICATED);
    });

    it("answers 401 on every /v1 path, known or not, and for a body that is not JSON", async () => {
      const unknown = await answerWhileBodyWithheld(h.baseUrl, {
        path: "/v1/nothing-here",
        headers: json,
        declaredBytes: SIX_MB,
        firstBytes: FIRST_BYTES,
      });
      expect(unknown.status).to.equal(401);
      const form = await answerWhileBodyWithheld(h.baseUrl, {
        path: "/v1/swarm/completions",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        declaredBytes: SIX_MB,
        firstBytes: "task=",
      });
      expect(form.json()).to.deep.equal(V1_UNAUTHENTICATED);
    });

    /** The API app with a limiter allowing `perMinute` requests a minute, served on a free port. */
    async function serveLimitedTo(perMinute: number): Promise<ServedApp> {
      const tier = { perMinute, perHour: 100, perDay: 100, tokensPerAgent: 1 };
      const limiter = createRateLimiter(h.deps.redis, {
        tiers: { free: tier, premium: tier },
        prefix: `rl-test:${randomUUID()}`,
        timeoutMs: 1_000,
      });
      return serveApp(createApiApp(h.deps, { bullBoard: false, rateLimiter: limiter }));
    }

    it("answers 429 to a key over its limit without the body", async () => {
      const served = await serveLimitedTo(1);
      try {
        const { key } = await h.newKey();
        const first = await request(served.url, "GET", "/v1/rate/limits", { key });
        expect(first.status).to.equal(200);
        const res = await answerWhileBodyWithheld(served.url, {
          path: "/v1/agent/batch/completions",
          headers: { ...json, "x-api-key": key },
          declaredBytes: SIX_MB,
          firstBytes: "[",
        });
        expect(res.status).to.equal(429);
        expect(res.json()).to.include({ code: "RATE_LIMITED", status_code: 429 });
      } finally {
        await served.close();
      }
    });

    // A burst arrives before any verdict could mark the key as used up: each large body must be
    // admitted before it is read, or the whole burst is read and parsed only to be refused.
    for (const [label, headers, declaredBytes] of [
      ["a declared length over 64 KB", json, SIX_MB],
      ["a chunked body", json, undefined],
      ["a small gzip body (it may inflate to the body limit)", { ...json, "content-encoding": "gzip" }, 1_000],
    ] as const) {
      it(`reads the bodies of a burst with ${label} only for the requests its limit admits`, async () => {
        const served = await serveLimitedTo(2);
        try {
          const { key } = await h.newKey();
          const burst = await Promise.allSettled(
            Array.from({ length: 6 }, () =>
              answerWhileBodyWithheld(served.url, {
                path: "/v1/agent/completions",
                headers: { ...headers, "x-api-key": key },
                declaredBytes,
                firstBytes: "{",
                withinMs: 1_500,
              }),
            ),
          );
          const refused = burst.filter((r) => r.status === "fulfilled" && r.value.status === 429);
          const waitingForBody = burst.filter((r) => r.status === "rejected");
          expect(refused).to.have.length(4);
          expect(waitingForBody).to.have.length(2);
        } finally {
          await served.close();
        }
      });
    }

    it("counts a large batch's items once: one point before its body, the rest after", async () => {
      const served = await serveLimitedTo(10);
      try {
        const { key } = await h.newKey();
        const item = { agent_config: { max_loops: 0 }, task: "x".repeat(30 * 1024) };
        const res = await request(served.url, "POST", "/v1/agent/batch/completions", { key, body: [item, item, item] });
        expect(res.status).to.equal(422);
        expect(res.headers.get("x-ratelimit-remaining-minute")).to.equal("7");
        const after = await request(served.url, "GET", "/v1/rate/limits", { key });
        expect(after.headers.get("x-ratelimit-remaining-minute")).to.equal("6");
      } finally {
        await served.close();
      }
    });

    it("still reads and validates the whole body of an authenticated request", async () => {
      const { key } = await h.newKey();
      const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { max_loops: 0 }, task: "x".repeat(SIX_MB), padding: "y" },
      });
      expect(res.status).to.equal(422);
      expect(res.body.detail.map((d: any) => d.loc.join("."))).to.include("body.agent_config.max_loops");
    });

    it("keeps the admin board's basic auth ahead of its body", async () => {
      const res = await answerWhileBodyWithheld(h.baseUrl, {
        path: "/admin/queues/api/queues/agent/clean/completed",
        headers: json,
        declaredBytes: SIX_MB,
        firstBytes: FIRST_BYTES,
      });
      expect(res.status).to.equal(401);
      expect(res.headers["www-authenticate"]).to.match(/^Basic/);
    });
  });

  describe("platform app", () => {
    const PLATFORM_UNAUTHENTICATED = {
      error: "Authentication failed",
      code: "AUTHENTICATION_FAILED",
      status_code: 401,
    };

    it("answers the platform 401 to prompt creation, editing, rating and the token launch without the body", async () => {
      for (const path of ["/api/add-prompt", "/api/edit-prompt", "/api/rate-prompt"]) {
        const res = await answerWhileBodyWithheld(h.platformUrl, {
          path,
          headers: { "content-type": "application/json" },
          declaredBytes: SIX_MB,
          firstBytes: FIRST_BYTES,
        });
        expect(res.status, path).to.equal(401);
        expect(res.json(), path).to.include(PLATFORM_UNAUTHENTICATED);
      }
      const launch = await answerWhileBodyWithheld(h.platformUrl, {
        path: "/api/token/launch",
        headers: { "content-type": "multipart/form-data; boundary=xyz", authorization: "Bearer not-a-key" },
        declaredBytes: SIX_MB,
        firstBytes: '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n',
      });
      expect(launch.status).to.equal(401);
      expect(launch.json()).to.include(PLATFORM_UNAUTHENTICATED);
    });

    for (const path of ["/platform/api-keys", `/platform/api-keys/${randomUUID()}/revoke`, "/platform/sign-out"]) {
      it(`answers the 401 sign-in page to a form post to ${path} without a session, without the body`, async () => {
        const res = await answerWhileBodyWithheld(h.platformUrl, {
          path,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          firstBytes: `name=${"n".repeat(1024)}`, // chunked: no length to refuse up front
        });
        expect(res.status).to.equal(401);
        expect(res.headers["content-type"]).to.match(/^text\/html/);
        expect(res.text).to.match(/sign in/i);
      });
    }

    it("still reads the form of a signed-in user", async () => {
      const user = await sessionUser(h.deps.ds, "form-poster");
      const res = await request(h.platformUrl, "POST", "/platform/api-keys", {
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/x-www-form-urlencoded" },
        raw: "name=from-a-form",
      });
      expect(res.status).to.equal(201);
      expect(res.body).to.match(/from-a-form/);
    });

    it("refuses an anonymous prompt query body over its small limit from its declared length, and still answers a small one", async () => {
      const big = await answerWhileBodyWithheld(h.platformUrl, {
        path: "/api/query-prompts",
        headers: { "content-type": "application/json" },
        declaredBytes: SIX_MB,
        firstBytes: FIRST_BYTES,
      });
      expect(big.status).to.equal(413);
      expect(big.json()).to.include({ status_code: 413 });
      const small = await request(h.platformUrl, "POST", "/api/query-prompts", { body: { limit: 1 } });
      expect(small.status).to.equal(200);
    });
  });
});
