import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { readdirSync, readlinkSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import Koa from "koa";
import { jsonBody, platformBody } from "../../api/http/body";
import { v1ErrorBodies } from "../../api/http/error-bodies";
import { handleErrors } from "../../api/http/errors";
import { requestLogger } from "../../api/http/request-logger";
import { logger } from "../../shared/logger";
import { httpRequests } from "../../shared/metrics/web";
import { harness, type Harness } from "../helpers/harness";
import { eventually } from "../helpers/http";
import { captureLogs, type CapturedLogs } from "../helpers/log-capture";
import { answerWhileBodyWithheld } from "../helpers/withheld-body";
import { serveApp, type ServedApp } from "../helpers/platform-app";

/**
 * Requests whose client sends its headers and part of its body (or none of it) and then closes the
 * connection, over a raw socket: whatever reads the body (plain, through zlib, or formidable's
 * multipart parser) and whenever the client leaves, the request ends as the client's own 400
 * `REQUEST_ABORTED`, with one request log line (info, naming that code) and, on `/v1`, a count.
 * A request left hanging would write neither: its log line is written when its handler ends.
 */
describe("a request whose client leaves before sending its whole body", () => {
  let h: Harness;
  let key: string;
  let logs: CapturedLogs;
  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });
  beforeEach(() => (logs = captureLogs()));
  afterEach(() => logs.stop());

  /** Sends the request line, `headers` and `partialBody` over a raw socket, then (after `leaveWhen`) closes it. */
  async function abandon(
    baseUrl: string,
    path: string,
    headers: Record<string, string>,
    partialBody: Buffer,
    leaveWhen?: Promise<void>,
  ) {
    const url = new URL(baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: ${url.host}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    const bytes = Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), partialBody]);
    await new Promise<void>((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    await leaveWhen;
    socket.destroy();
  }

  /** The request's log lines once its request line was written (within a deadline). */
  async function linesOf(requestId: string) {
    const ofRequest = () => logs.lines.filter((line) => line.reqId === requestId);
    await eventually(async () => (ofRequest().some((line) => line.msg === "request") ? true : undefined), 5_000);
    return ofRequest();
  }

  /** What the `/v1` request counter holds for the agent completions route answered 400. */
  async function abortedCount(): Promise<number> {
    const { values } = await httpRequests.get();
    const found = values.find((v) => v.labels.route === "/v1/agent/completions" && v.labels.status === "400");
    return found?.value ?? 0;
  }

  const json = gzipSync(JSON.stringify({ agent_config: { agent_name: "Gone" }, task: "x".repeat(200_000) }));
  const cases: { name: string; headers: Record<string, string>; partial: Buffer }[] = [
    {
      name: "a gzip body cut off in the middle",
      headers: { "Content-Encoding": "gzip", "Content-Length": String(json.length) },
      partial: json.subarray(0, Math.floor(json.length / 2)),
    },
    {
      name: "a gzip body of which nothing came",
      headers: { "Content-Encoding": "gzip", "Content-Length": String(json.length) },
      partial: Buffer.alloc(0),
    },
    {
      name: "a plain body cut off in the middle",
      headers: { "Content-Length": "200000" },
      partial: Buffer.from(`{"task": "${"y".repeat(1000)}`),
    },
  ];
  for (const { name, headers, partial } of cases)
    it(`on /v1, ${name}: one REQUEST_ABORTED line, counted, nothing left pending`, async () => {
      const requestId = `abandoned-${randomUUID()}`;
      const countedBefore = await abortedCount();

      await abandon(
        h.baseUrl,
        "/v1/agent/completions",
        { "X-API-Key": key, "Content-Type": "application/json", "X-Request-Id": requestId, ...headers },
        partial,
      );

      const lines = await linesOf(requestId);
      expect(lines.map((line) => line.msg)).to.deep.equal(["request"]);
      expect(lines[0]).to.include({ status: 400, code: "REQUEST_ABORTED", path: "/v1/agent/completions", level: 30 });
      expect(await abortedCount()).to.equal(countedBefore + 1);
    });

  it("on the platform app, a multipart upload cut off: one REQUEST_ABORTED line", async () => {
    const boundary = `----apiary${randomUUID()}`;
    const upload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
          "Content-Type: image/png\r\n\r\n",
      ),
      Buffer.alloc(64 * 1024, 7),
    ]);
    for (const partial of [upload, Buffer.alloc(0)]) {
      const requestId = `abandoned-${randomUUID()}`;
      await abandon(
        h.platformUrl,
        "/api/token/launch",
        {
          Authorization: `Bearer ${key}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": String(upload.length + 1_000_000),
          "X-Request-Id": requestId,
        },
        partial,
      );

      const lines = await linesOf(requestId);
      expect(
        lines.map((line) => line.msg),
        `${partial.length} bytes sent`,
      ).to.deep.equal(["request"]);
      expect(lines[0]).to.include({ status: 400, code: "REQUEST_ABORTED", path: "/api/token/launch", level: 30 });
    }
  });
  describe("whichever comes first, the client leaving or the body's read starting", () => {
    let served: ServedApp;
    /** Holds each request before its body is read until it resolves (the test decides the order). */
    let gate: (req: IncomingMessage) => Promise<void>;
    before(async () => {
      const app = new Koa();
      app.silent = true; // as the service's apps: a client's broken request is not printed
      app.use(requestLogger(logger));
      app.use(handleErrors(v1ErrorBodies("")));
      app.use((ctx, next) => gate(ctx.req).then(next));
      const json = jsonBody("1mb");
      const upload = platformBody({ fileField: "image" }) as unknown as Koa.Middleware;
      app.use((ctx, next) => (ctx.path === "/json" ? json(ctx, next) : upload(ctx, next)));
      app.use((ctx) => void (ctx.body = { read: true }));
      served = await serveApp(app);
    });
    after(() => served.close());

    const boundary = "----apiary-gated";
    const bodies = [
      { name: "a gzip JSON body", path: "/json", type: "application/json", gzip: true },
      { name: "a plain JSON body", path: "/json", type: "application/json", gzip: false },
      { name: "a multipart upload", path: "/upload", type: `multipart/form-data; boundary=${boundary}`, gzip: false },
    ];
    const partOf = (path: string, gzip: boolean) => {
      const text =
        path === "/json"
          ? `{"task": "${randomBytes(75_000).toString("base64")}"}`
          : `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n${randomBytes(75_000).toString("base64")}`;
      const bytes = gzip ? gzipSync(text) : Buffer.from(text);
      // A part small enough to be buffered unread: a server reading nothing of a body stops reading
      // its socket once it holds a socket buffer's worth, and then only learns of the client's
      // leaving when the read starts (the other order, tested too).
      return { partial: bytes.subarray(0, 1000), length: bytes.length };
    };

    for (const { name, path, type, gzip } of bodies)
      for (const order of ["leaves before the read starts", "leaves once the read has started"])
        it(`${name} whose client ${order}: one REQUEST_ABORTED line`, async () => {
          const requestId = `gated-${randomUUID()}`;
          const { partial, length } = partOf(path, gzip);
          let readStarts!: () => void;
          const readStarted = new Promise<void>((resolve) => (readStarts = resolve));
          gate =
            order === "leaves before the read starts"
              ? (req) => new Promise<void>((resolve) => (req.destroyed ? resolve() : req.once("close", resolve)))
              : async () => readStarts();
          const headers = {
            "Content-Type": type,
            "Content-Length": String(length),
            "X-Request-Id": requestId,
            ...(gzip ? { "Content-Encoding": "gzip" } : {}),
          };

          await abandon(
            served.url,
            path,
            headers,
            partial,
            order === "leaves before the read starts" ? undefined : readStarted,
          );

          const lines = await linesOf(requestId);
          expect(lines.map((line) => line.msg)).to.deep.equal(["request"]);
          expect(lines[0]).to.include({ status: 400, code: "REQUEST_ABORTED", level: 30 });
        });
  });
});

/** The files under the temporary folder this process holds open (a multipart parser writes its parts there). */
function openTempFiles(): string[] {
  return readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(tmpdir()));
}

describe("a request whose body does not arrive in time", function () {
  this.timeout(20_000);
  const READ_TIMEOUT_MS = 300;
  let served: ServedApp;
  before(async () => {
    const app = new Koa();
    app.silent = true;
    app.use(handleErrors(v1ErrorBodies("")));
    const json = jsonBody("64kb", READ_TIMEOUT_MS);
    const upload = platformBody({ fileField: "image", readTimeoutMs: READ_TIMEOUT_MS }) as unknown as Koa.Middleware;
    app.use((ctx, next) => (ctx.path === "/json" ? json(ctx, next) : upload(ctx, next)));
    app.use((ctx) => void (ctx.body = { read: true }));
    served = await serveApp(app);
  });
  after(() => served.close());

  // A client trickling its body (or sending part of it and then nothing) would otherwise hold its
  // socket and its request forever: the server sets no request timeout, as synchronous runs may
  // take minutes to answer.
  for (const [name, path, headers, firstBytes] of [
    ["a JSON body", "/json", { "content-type": "application/json" }, '{"task": "'],
    ["a gzip JSON body", "/json", { "content-type": "application/json", "content-encoding": "gzip" }, gzipSync("{")],
    [
      "a multipart upload",
      "/upload",
      { "content-type": "multipart/form-data; boundary=b" },
      `--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${"x".repeat(20_000)}`,
    ],
  ] as const) {
    it(`answers ${name} still missing after BODY_READ_TIMEOUT_MS (plus a second per 64 KB) with 408, leaving nothing open`, async () => {
      const openBefore = openTempFiles();
      const started = Date.now();
      const res = await answerWhileBodyWithheld(served.url, {
        path,
        headers: { ...headers },
        declaredBytes: 60_000, // up to 64 KB: one allowance, a second more
        firstBytes,
        withinMs: 5_000,
      });
      expect(res.status).to.equal(408);
      expect(res.json()).to.include({ code: "REQUEST_TIMEOUT", status_code: 408 });
      expect(res.headers.connection).to.equal("close");
      expect(Date.now() - started).to.be.at.least(READ_TIMEOUT_MS + 1_000 - 20);
      // A multipart parser had opened a temporary file for the part: it must not stay open.
      await eventually(async () =>
        openTempFiles().filter((f) => !openBefore.includes(f)).length === 0 ? true : undefined,
      );
    });
  }

  it("gives a body that announces far more than its limit no more time than its limit allows", async () => {
    // A compressed body's length reaches no parser check: the allowance is capped at the 64 KB limit.
    const started = Date.now();
    const res = await answerWhileBodyWithheld(served.url, {
      path: "/json",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      declaredBytes: 100_000_000_000,
      firstBytes: gzipSync("{"),
      withinMs: 5_000,
    });
    expect(res.status).to.equal(408);
    expect(Date.now() - started).to.be.below(READ_TIMEOUT_MS + 1_000 + 1_500);
  });
});
