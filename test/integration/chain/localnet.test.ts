import { expect } from "chai";
import bs58 from "bs58";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SendTransactionError,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import { harness } from "../../helpers/harness";
import type { Localnet } from "../../../scripts/solana-localnet/server";

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return res.json();
}

async function funded(connection: Connection, sol = 2): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await connection.requestAirdrop(wallet.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return wallet;
}

function transfer(from: Keypair, to: Keypair, lamports: number, blockhash: string): Transaction {
  const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight: 0 }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports }),
  );
  tx.sign(from);
  return tx;
}

describe("Solana localnet (JSON-RPC + websocket over LiteSVM)", () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => {
    net = await (await harness()).localnet();
    connection = new Connection(net.rpcUrl, "confirmed");
  });

  it("answers the cluster-information methods a Connection uses", async () => {
    expect(await connection.getVersion()).to.have.property("solana-core");
    expect(await connection.getGenesisHash()).to.match(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const slot = await connection.getSlot();
    expect(slot).to.be.greaterThan(0);
    expect(await connection.getBlockHeight()).to.be.greaterThan(0);
    expect((await connection.getEpochInfo()).absoluteSlot).to.be.at.least(slot);
    expect((await rpc(net.rpcUrl, "getHealth")).result).to.equal("ok");
    expect(await connection.getMinimumBalanceForRentExemption(0)).to.equal(890_880);
    const unknown = await rpc(net.rpcUrl, "getNothing");
    expect(unknown.error.code).to.equal(-32601);
  });

  it("airdrops, confirms over the websocket, transfers and reads accounts back", async () => {
    const from = await funded(connection);
    expect(await connection.getBalance(from.publicKey)).to.equal(2 * LAMPORTS_PER_SOL);
    const to = Keypair.generate();
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports: LAMPORTS_PER_SOL }),
      ),
      [from],
    );
    const [fromInfo, toInfo, none] = await connection.getMultipleAccountsInfo([
      from.publicKey,
      to.publicKey,
      Keypair.generate().publicKey,
    ]);
    expect(toInfo!.lamports).to.equal(LAMPORTS_PER_SOL);
    expect(fromInfo!.lamports).to.equal(LAMPORTS_PER_SOL - 5_000); // one signature's fee
    expect(toInfo!.owner.equals(SystemProgram.programId)).to.equal(true);
    expect(none).to.equal(null);
  });

  it("refuses a failing transaction at preflight with -32002 and its logs, and lands it with its error when preflight is skipped", async () => {
    const from = await funded(connection, 1);
    const { blockhash } = await connection.getLatestBlockhash();
    const tooMuch = transfer(from, Keypair.generate(), 5 * LAMPORTS_PER_SOL, blockhash);
    const raw = await rpc(net.rpcUrl, "sendTransaction", [
      tooMuch.serialize().toString("base64"),
      { encoding: "base64" },
    ]);
    expect(raw.error.code).to.equal(-32002);
    expect(raw.error.message).to.equal(
      "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
    );
    expect(raw.error.data.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
    expect(raw.error.data.logs.join("\n")).to.include("insufficient lamports");
    const refused = await connection.sendRawTransaction(tooMuch.serialize()).catch((e) => e);
    expect(refused).to.be.instanceOf(SendTransactionError);

    const signature = await connection.sendRawTransaction(tooMuch.serialize(), { skipPreflight: true });
    const status = (await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0];
    expect(status!.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
    const confirmation = await connection.confirmTransaction({
      signature,
      blockhash,
      lastValidBlockHeight: (await connection.getLatestBlockhash()).lastValidBlockHeight,
    });
    expect(confirmation.value.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
    expect(await connection.getBalance(from.publicKey)).to.equal(LAMPORTS_PER_SOL - 5_000); // the fee is paid
  });

  it("takes base58 and base64, lands a signature once, and refuses expired blockhashes", async () => {
    const from = await funded(connection, 1);
    const to = Keypair.generate();
    const tx = transfer(from, to, 1_000_000, (await connection.getLatestBlockhash()).blockhash);
    const viaBase58 = await rpc(net.rpcUrl, "sendTransaction", [bs58.encode(tx.serialize())]);
    expect(viaBase58.result).to.equal(bs58.encode(tx.signature!));
    const again = await rpc(net.rpcUrl, "sendTransaction", [tx.serialize().toString("base64"), { encoding: "base64" }]);
    expect(again.error.data.err).to.equal("AlreadyProcessed");
    await rpc(net.rpcUrl, "sendTransaction", [
      tx.serialize().toString("base64"),
      { encoding: "base64", skipPreflight: true },
    ]);
    expect(await connection.getBalance(to.publicKey)).to.equal(1_000_000);
    expect(net.ledger.sendsOf(viaBase58.result)).to.have.length(3);

    const { blockhash } = await connection.getLatestBlockhash();
    expect((await connection.isBlockhashValid(blockhash)).value).to.equal(true);
    net.ledger.advance(151);
    expect((await connection.isBlockhashValid(blockhash)).value).to.equal(false);
    const stale = await rpc(net.rpcUrl, "sendTransaction", [
      transfer(from, to, 1, blockhash).serialize().toString("base64"),
      { encoding: "base64" },
    ]);
    expect(stale.error).to.deep.include({
      code: -32002,
      message: "Transaction simulation failed: Blockhash not found",
    });
    const bad = await rpc(net.rpcUrl, "sendTransaction", ["!!!", { encoding: "base64" }]);
    expect(bad.error.code).to.equal(-32602);
  });

  it("simulates without changing state", async () => {
    const from = await funded(connection, 1);
    const to = Keypair.generate();
    // A fresh connection: web3.js re-signs simulations with its cached blockhash, which the expiry test made stale.
    const sim = await new Connection(net.rpcUrl, "confirmed").simulateTransaction(
      transfer(from, to, 1_000_000, (await connection.getLatestBlockhash()).blockhash),
    );
    expect(sim.value.err).to.equal(null);
    expect(sim.value.logs!.join("\n")).to.include("success");
    expect(await connection.getBalance(to.publicKey)).to.equal(0);
  });

  it("holds transactions like a congested leader, then lands them on release", async () => {
    const from = await funded(connection, 1);
    const to = Keypair.generate();
    net.ledger.hold();
    try {
      const signature = await connection.sendRawTransaction(
        transfer(from, to, 2_000_000, (await connection.getLatestBlockhash()).blockhash).serialize(),
      );
      expect((await connection.getSignatureStatuses([signature])).value[0]).to.equal(null);
      const confirmed = connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
      net.ledger.release();
      expect((await confirmed).value.err).to.equal(null);
      expect(await connection.getBalance(to.publicKey)).to.equal(2_000_000);
    } finally {
      net.ledger.release();
    }
  });
});
