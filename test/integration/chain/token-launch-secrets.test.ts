import { expect } from "chai";
import bs58 from "bs58";
import { Connection, Keypair } from "@solana/web3.js";
import type { Redis } from "ioredis";
import { freePorts } from "../../../scripts/bench/stack/free-port";
import { exited, spawnEntry } from "../../helpers/child-process";
import { harness, type Harness } from "../../helpers/harness";
import { eventually } from "../../helpers/http";
import { dataUrl, PNG_1PX } from "../../helpers/images";
import { config } from "../../../shared/config";
import { appendOnlyFilesText, rewritesSettled } from "../../helpers/redis-aof";
import { postgresText, redisText } from "../../helpers/secret-scan";
import { fundedWallet, keyEncodings, keyLeakForms, newKeypair, usedKeys } from "../../helpers/solana-keys";
import { post, promptBody } from "../../helpers/prompts";
import { postLaunch } from "../../helpers/token-launch";

describe("private keys never reach logs, Redis or Postgres", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("after launches (listings' and prompts') in every key format, refused keys and failed launches, through a logging web and chain worker", async function () {
    this.timeout(120_000);
    const net = await h.localnet();
    const connection = new Connection(net.rpcUrl, "confirmed");
    const { key } = await h.newKey();
    const [port, platformPort] = await freePorts(2);
    const inProcess = h.workers.workers.find((w) => w.name === "chain")!;
    await inProcess.pause(); // the logging child worker takes every launch
    const web = spawnEntry("api/main.ts", [], {
      LOG_LEVEL: "trace",
      PORT: String(port),
      PLATFORM_PORT: String(platformPort),
      // A stored image's URL too long for one launch transaction: how the failing launch below fails
      // (a seller's own image URL is fetched and stored now, never written into the metadata as given).
      STORAGE_PUBLIC_URL: `http://placeholder.test/${"a".repeat(1_400)}`,
    });
    const worker = spawnEntry("workers/main.ts", ["--queues", "chain"], { LOG_LEVEL: "trace" });
    try {
      await eventually(
        async () =>
          web.output.join("").includes("web listening") && worker.output.join("").includes("workers started")
            ? true
            : undefined,
        60_000,
      );
      const platform = `http://127.0.0.1:${platformPort}`;
      const base = { name: "Secret Bee", description: "Keeps secrets.", ticker: "shh" };

      const launched: string[] = [];
      for (const form of ["json", "base64", "base58"] as const) {
        const wallet = await fundedWallet(connection, 0.05);
        const res = await postLaunch(platform, key, { ...base, private_key: keyEncodings(wallet)[form] });
        expect(res.status, res.text).to.equal(200);
        launched.push(res.body.id);
      }
      const withFile = await fundedWallet(connection, 0.05);
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...base, private_key: keyEncodings(withFile).json }))
        form.append(name, value);
      form.append("image", "https://images.example.com/bee.png"); // a file would be stored under the long URL above
      expect((await postLaunch(platform, key, form)).status).to.equal(200);

      const refused = newKeypair();
      const mixed = Buffer.concat([refused.secretKey.subarray(0, 32), Keypair.generate().publicKey.toBytes()]);
      for (const privateKey of [
        bs58.encode(mixed),
        JSON.stringify([...refused.secretKey].slice(0, 63)),
        `${keyEncodings(refused).base64}x`,
      ]) {
        expect((await postLaunch(platform, key, { ...base, private_key: privateKey })).status).to.equal(400);
      }
      expect(
        (await postLaunch(platform, key, { ...base, private_key: keyEncodings(newKeypair()).base64 })).body.error,
      ).to.equal("Insufficient SOL balance");
      const failing = await fundedWallet(connection, 0.05);
      expect(
        (
          await postLaunch(platform, key, {
            ...base,
            name: "N".repeat(1_500),
            private_key: keyEncodings(failing).base58,
          })
        ).body.error,
      ).to.equal("Tokenization failed");

      // Prompt creation: a tokenized prompt launched, one with another wallet's key, one unfunded, one whose launch fails.
      const tokenized = (wallet: Keypair, privateKey: unknown, extra: Record<string, unknown> = {}) =>
        promptBody({
          tokenized_on: true,
          ticker: "shh",
          creator_wallet: wallet.publicKey.toBase58(),
          private_key: privateKey,
          ...extra,
        });
      const promptWallet = await fundedWallet(connection, 0.05);
      const prompt = await post(platform, "/api/add-prompt", key, tokenized(promptWallet, [...promptWallet.secretKey]));
      expect(prompt.status, JSON.stringify(prompt.body)).to.equal(200);
      expect(prompt.body.tokenized).to.equal(true);
      launched.push(prompt.body.id);
      expect(
        (await post(platform, "/api/add-prompt", key, tokenized(promptWallet, keyEncodings(newKeypair()).base64)))
          .status,
      ).to.equal(400);
      const unfunded = newKeypair();
      expect(
        (await post(platform, "/api/add-prompt", key, tokenized(unfunded, keyEncodings(unfunded).json))).body.error,
      ).to.equal("Insufficient SOL balance");
      const failingPrompt = await fundedWallet(connection, 0.05);
      const unlaunchable = tokenized(failingPrompt, keyEncodings(failingPrompt).base58, {
        image_base64: dataUrl(PNG_1PX),
      });
      expect((await post(platform, "/api/add-prompt", key, unlaunchable)).body.error).to.equal("Tokenization failed");

      // Every launch job has ended (its key is destroyed as it ends, just after its run is answered):
      // no launch key may be left.
      const redis = await eventually(async () => {
        const text = await redisText(h.deps.redis);
        return text.includes(":launch-key:") ? undefined : text;
      }, 10_000);
      expect(redis).to.include("token-launch");
      // Nor Redis's append-only file, once the rewrites the ended jobs asked for are done.
      // (The file is the whole server's: other runs' keys may be in it, so only this run's are looked for.)
      const disk = await eventually(async () => {
        await rewritesSettled(h.deps.redis as Redis);
        const text = await appendOnlyFilesText(h.deps.redis as Redis);
        return text.includes(`${config.queue.prefix}:launch-key:`) ? undefined : text;
      }, 20_000);
      const postgres = await postgresText(h.deps.ds);
      for (const id of launched) expect(postgres).to.include(id);
      const logs = `${web.output.join("")}\n${worker.output.join("")}`;
      expect(logs).to.include("launch signed and stored");

      expect(usedKeys.length).to.be.at.least(11);
      for (const keypair of usedKeys) {
        for (const leak of [
          ...keyLeakForms(keypair),
          ...(keypair === refused ? [bs58.encode(mixed), mixed.toString("base64")] : []),
        ]) {
          expect(redis.includes(leak), "a private key is in Redis").to.equal(false);
          expect(disk.includes(leak), "a private key is in Redis's append-only file").to.equal(false);
          expect(postgres.includes(leak), "a private key is in Postgres").to.equal(false);
          expect(logs.includes(leak), "a private key is in the logs").to.equal(false);
        }
      }
    } finally {
      for (const child of [web, worker])
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.all([exited(web), exited(worker)]);
      inProcess.resume();
    }
  });
});
