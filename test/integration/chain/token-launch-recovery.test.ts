import { expect } from "chai";
import { randomUUID } from "node:crypto";
import pino from "pino";
import { Connection } from "@solana/web3.js";
import { insertListingLaunch } from "../../../shared/db/token-launch-store";
import { launchToken } from "../../../workers/chain/launch-token";
import type { TokenLauncher } from "../../../workers/chain/launchers/launcher";
import { Token2022Launcher } from "../../../workers/chain/launchers/token-2022";
import type { Localnet } from "../../../scripts/solana-localnet/server";
import { exited, spawnEntry } from "../../helpers/child-process";
import { harness, type Harness } from "../../helpers/harness";
import { eventually } from "../../helpers/http";
import { fundedWallet, keyEncodings, keyLeakForms } from "../../helpers/solana-keys";
import { postLaunch, readLaunchedToken } from "../../helpers/token-launch";

const silentLogger = pino({ level: "silent" });

/** The launch row of the user's newest listing, once it has reached `status`. */
async function launchOf(
  h: Harness,
  userId: string,
  status: string,
): Promise<{ id: string; signature: string; signatures: string[]; run_id: string }> {
  return eventually(async () => {
    const [row] = await h.deps.ds.query(
      `SELECT * FROM token_launches WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [userId],
    );
    return row?.status === status ? row : undefined;
  }, 30_000);
}

describe("token launches that meet trouble never send twice", () => {
  let h: Harness;
  let net: Localnet;
  let connection: Connection;
  before(async () => {
    h = await harness();
    net = await h.localnet();
    connection = new Connection(net.rpcUrl, "confirmed");
  });
  afterEach(() => net.ledger.release());

  it("a chain worker killed after sending: another worker confirms the stored signature instead of sending again", async function () {
    this.timeout(90_000);
    const { key, userId } = await h.newKey();
    const wallet = await fundedWallet(connection, 0.1);
    const inProcess = h.workers.workers.find((w) => w.name === "chain")!;
    await inProcess.pause(); // the child process takes the job
    const child = spawnEntry("workers/main.ts", ["--queues", "chain"], { LOG_LEVEL: "trace" });
    try {
      await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
      net.ledger.hold(); // the network takes the transaction but does not land it yet
      const response = postLaunch(h.platformUrl, key, {
        name: "Crash Bee",
        description: "Survives.",
        ticker: "crash",
        private_key: keyEncodings(wallet).base58,
      });

      const sent = await launchOf(h, userId, "sent");
      await eventually(async () => (net.ledger.sendsOf(sent.signature).length === 1 ? true : undefined), 30_000);
      child.kill("SIGKILL");
      expect(await exited(child)).to.equal("SIGKILL");
      inProcess.resume();

      // The retry is under way (its claim counted a second attempt) while the transaction is still held.
      await eventually(async () => {
        const [run] = await h.deps.ds.query(`SELECT attempts FROM runs WHERE id = $1`, [sent.run_id]);
        return run.attempts === 2 ? true : undefined;
      }, 30_000);
      net.ledger.release();

      const res = await response;
      expect(res.status, res.text).to.equal(200);
      expect(net.ledger.sendsOf(sent.signature)).to.have.length(1);
      const launch = await launchOf(h, userId, "confirmed");
      expect(launch.signature).to.equal(sent.signature);
      const { metadata, holding } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
      expect(metadata).to.include({ name: "Crash Bee", symbol: "CRASH" });
      expect(holding.amount > 0n).to.equal(true);
      const logs = child.output.join("");
      expect(logs).to.include(sent.signature); // the child logged its work…
      for (const form of keyLeakForms(wallet)) expect(logs).to.not.include(form); // …and never the key
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      inProcess.resume();
    }
  });

  it("a launch the network dropped is built anew only after its blockhash expired, and lands once", async function () {
    this.timeout(60_000);
    const { key, userId } = await h.newKey();
    const wallet = await fundedWallet(connection, 0.1);
    net.ledger.hold();
    const response = postLaunch(h.platformUrl, key, {
      name: "Dropped Bee",
      description: "Tries again.",
      ticker: "drop",
      private_key: keyEncodings(wallet).json,
    });
    const first = await launchOf(h, userId, "sent");
    await eventually(async () => (net.ledger.sendsOf(first.signature).length === 1 ? true : undefined), 30_000);
    net.ledger.release({ drop: true }); // lost on the way: it never lands
    const expiredAt = Date.now();
    net.ledger.advance(151);

    const res = await response;
    expect(res.status, res.text).to.equal(200);
    const launch = await launchOf(h, userId, "confirmed");
    expect(launch.signature).to.not.equal(first.signature);
    expect(net.ledger.sendsOf(first.signature)).to.have.length(1);
    const rebuilt = net.ledger.sendsOf(launch.signature);
    expect(rebuilt).to.have.length(1);
    expect(rebuilt[0].at).to.be.at.least(expiredAt);
    expect(
      (await connection.getSignatureStatuses([first.signature], { searchTransactionHistory: true })).value[0],
    ).to.equal(null);
    expect((await readLaunchedToken(connection, res.body.token_address, wallet.publicKey)).metadata!.symbol).to.equal(
      "DROP",
    );
  });
});

describe("a launch job delivered to two workers at once", () => {
  it("is sent by one of them; the other confirms the stored launch", async function () {
    this.timeout(60_000);
    const h = await harness();
    const net = await h.localnet();
    const connection = new Connection(net.rpcUrl, "confirmed");
    const { userId, keyId } = await h.newKey();
    const wallet = await fundedWallet(connection, 0.1);
    const runId = randomUUID();
    const { launchId } = await insertListingLaunch(h.deps.ds, {
      runId,
      userId,
      apiKeyId: keyId,
      listing: {
        name: "Twin Bee",
        description: "Twice delivered.",
        ticker: "TWIN",
        imageUrl: null,
        code: "#",
        metadata: {},
      },
      launch: {
        network: "localnet",
        launcher: "token-2022",
        creatorWallet: wallet.publicKey.toBase58(),
        quoteMint: "SOL",
        feeSelection: "market",
      },
      request: {},
    });
    // Both deliveries build their transactions before either stores its signatures: the race.
    const inner = new Token2022Launcher();
    let arrived = 0;
    let bothArrived!: () => void;
    const barrier = new Promise<void>((resolve) => (bothArrived = resolve));
    const launcher: TokenLauncher = {
      name: "token-2022",
      async prepare(c, request) {
        if (++arrived === 2) bothArrived();
        await barrier;
        return inner.prepare(c, request);
      },
    };
    const deps = { ds: h.deps.ds, connection, launcher, logger: silentLogger, pollMs: 100 };
    const sendsBefore = net.ledger.sends.length;
    const [a, b] = await Promise.all([
      launchToken(deps, launchId, () => wallet),
      launchToken(deps, launchId, () => wallet),
    ]);
    expect(arrived).to.equal(2); // the losing delivery built once, then confirmed the winner's launch
    expect(a).to.deep.equal(b);
    expect(net.ledger.sends.length - sendsBefore).to.equal(1);
    expect(net.ledger.sendsOf(a.signature)).to.have.length(1);
    const { holding } = await readLaunchedToken(connection, a.mintAddress, wallet.publicKey);
    expect(holding.amount > 0n).to.equal(true);
  });
});
