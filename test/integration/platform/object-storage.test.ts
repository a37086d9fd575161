import { expect } from "chai";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPlatformServices, platformSettings } from "../../../api/marketplace/platform-services";
import { createObjectStorage, decodeImage, ImageError, S3ObjectStorage } from "../../../shared/storage";
import { harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { dataUrl, GIF_1PX, JPEG_HEAD, PDF_BYTES, PNG_1PX, WEBP_1PX } from "../../helpers/images";
import { servePlatform, type ServedApp } from "../../helpers/platform-app";
import { startLocalS3, type LocalS3 } from "../../helpers/s3-server";

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImageError) return err.problem;
    throw err;
  }
  throw new Error("no error was thrown");
}

describe("images: decoding and sniffing", () => {
  it("reads data URLs, raw base64 and raw bytes, typing them by their bytes", () => {
    expect(decodeImage(dataUrl(PNG_1PX)).contentType).to.equal("image/png");
    expect(decodeImage(JPEG_HEAD.toString("base64")).contentType).to.equal("image/jpeg");
    expect(decodeImage(GIF_1PX)).to.deep.include({ contentType: "image/gif", extension: "gif" });
    expect(decodeImage(` ${WEBP_1PX.toString("base64url")}\n`).contentType).to.equal("image/webp");
    expect(decodeImage(dataUrl(PNG_1PX)).data.equals(PNG_1PX)).to.equal(true);
  });

  it("never trusts the declared type", () => {
    const decoded = decodeImage(dataUrl(GIF_1PX, "image/png"));
    expect(decoded).to.deep.include({ contentType: "image/gif", extension: "gif" });
  });

  it("names each broken rule", () => {
    expect(problemOf(() => decodeImage(""))).to.equal("empty");
    expect(problemOf(() => decodeImage(Buffer.alloc(0)))).to.equal("empty");
    expect(problemOf(() => decodeImage("data:text/plain;base64,aGVsbG8="))).to.equal("invalid_data_url");
    expect(problemOf(() => decodeImage(`data:image/png,${PNG_1PX.toString("base64")}`))).to.equal("invalid_data_url");
    expect(problemOf(() => decodeImage("not*base64!"))).to.equal("invalid_base64");
    expect(problemOf(() => decodeImage(PDF_BYTES.toString("base64")))).to.equal("unsupported_type");
    expect(problemOf(() => decodeImage(PNG_1PX, 10))).to.equal("too_large");
    expect(problemOf(() => decodeImage(Buffer.alloc(4000, 1).toString("base64"), 1000))).to.equal("too_large");
  });
});

describe("object storage: local directory served by the platform", () => {
  let dir: string;
  let platform: ServedApp;

  before(async () => {
    const h = await harness();
    dir = await mkdtemp(join(tmpdir(), "apiary-uploads-"));
    platform = await servePlatform(
      h,
      createPlatformServices(
        platformSettings({ storage: { dir, publicUrl: "https://cdn.example.test/uploads", s3: null } }),
      ),
    );
  });
  after(async () => {
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores under the content hash and the sniffed extension, once", async () => {
    const storage = createObjectStorage({ dir, publicUrl: "https://cdn.example.test/uploads/", s3: null });
    const first = await storage.put(PNG_1PX, "image/png");
    expect(first).to.deep.equal({
      key: `${sha(PNG_1PX)}.png`,
      url: `https://cdn.example.test/uploads/${sha(PNG_1PX)}.png`,
    });
    expect((await readFile(join(dir, first.key))).equals(PNG_1PX)).to.equal(true);
    expect(await storage.put(PNG_1PX, "image/png")).to.deep.equal(first);
    expect(await storage.exists(first.key)).to.equal(true);
    expect(await storage.exists(`${sha(GIF_1PX)}.gif`)).to.equal(false);
    expect(await storage.exists("../etc/passwd")).to.equal(false);
  });

  it("refuses to store anything but the four image types", async () => {
    const storage = createObjectStorage({ dir, publicUrl: "http://x.test", s3: null });
    let caught: unknown;
    await storage.put(PDF_BYTES, "application/pdf").catch((err) => (caught = err));
    expect(caught).to.be.instanceOf(ImageError);
  });

  it("serves stored images at /uploads/<key> with their type", async () => {
    const storage = createObjectStorage({ dir, publicUrl: `${platform.url}/uploads`, s3: null });
    const { key, url } = await storage.put(GIF_1PX, "image/gif");
    const res = await fetch(url);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("image/gif");
    expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(GIF_1PX)).to.equal(true);
    expect(url).to.equal(`${platform.url}/uploads/${key}`);
  });

  it("answers 404 for unknown keys and any path outside the directory", async () => {
    await writeFile(join(dir, "secret.txt"), "not for the web");
    for (const path of [
      `/uploads/${sha(WEBP_1PX)}.webp`,
      "/uploads/secret.txt",
      "/uploads/..%2F..%2Fetc%2Fpasswd",
      "/uploads/%2e%2e%2fsecret.txt",
      "/uploads/../secret.txt",
    ]) {
      const res = await request(platform.url, "GET", path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.include({ error: "Not found", status_code: 404 });
    }
  });
});

describe("object storage: S3-compatible bucket", function () {
  let s3: LocalS3;

  before(async () => {
    s3 = await startLocalS3();
  });
  after(async () => {
    await s3?.close();
  });

  it("puts objects over the S3 protocol; they read back with their type", async () => {
    const storage = createObjectStorage({ dir: "/nonexistent", publicUrl: "http://unused.test", s3: s3.settings });
    expect(storage).to.be.instanceOf(S3ObjectStorage);
    const stored = await storage.put(WEBP_1PX, "image/webp");
    expect(stored).to.deep.equal({
      key: `${sha(WEBP_1PX)}.webp`,
      url: `${s3.settings.publicUrl}/${sha(WEBP_1PX)}.webp`,
    });
    const res = await fetch(stored.url);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("image/webp");
    expect(Buffer.from(await res.arrayBuffer()).equals(WEBP_1PX)).to.equal(true);
    expect(await storage.exists(stored.key)).to.equal(true);
    expect(await storage.exists(`${sha(PNG_1PX)}.png`)).to.equal(false);
  });

  it("is served by the platform itself at /images/<key>, typed by its key", async () => {
    const settings = { dir: "/nonexistent", publicUrl: "http://unused.test", s3: s3.settings };
    const platform = await servePlatform(
      await harness(),
      createPlatformServices(platformSettings({ storage: settings })),
    );
    try {
      const stored = await createObjectStorage(settings).put(GIF_1PX, "image/gif");
      const res = await fetch(`${platform.url}/images/${stored.key}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("image/gif");
      expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
      expect(res.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
      expect(Buffer.from(await res.arrayBuffer()).equals(GIF_1PX)).to.equal(true);
      for (const path of [`/images/${sha(PNG_1PX)}.png`, "/images/..%2Fsecret", `/images/${sha(GIF_1PX)}.svg`]) {
        expect((await request(platform.url, "GET", path)).status, path).to.equal(404);
      }
    } finally {
      await platform.close();
    }
  });

  it("fails (and stores nothing) when the server refuses the credentials", async () => {
    // s3rver checks the access key id of SigV4 requests, not the signature itself.
    const storage = new S3ObjectStorage({ ...s3.settings, accessKeyId: "UNKNOWN-KEY" });
    let caught: any;
    await storage.put(PNG_1PX, "image/png").catch((err) => (caught = err));
    expect(caught?.$metadata?.httpStatusCode).to.equal(403);
    expect(caught?.name).to.equal("InvalidAccessKeyId");
    expect(
      await createObjectStorage({ dir: "/nonexistent", publicUrl: "http://unused.test", s3: s3.settings }).exists(
        `${sha(PNG_1PX)}.png`,
      ),
    ).to.equal(false);
  });
});
