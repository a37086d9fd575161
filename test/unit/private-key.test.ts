import { expect } from "chai";
import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { assertKeyOwnsWallet, InvalidKeyError, parsePrivateKey, parsePublicKey } from "../../shared/chain/private-key";
import { keyEncodings } from "../helpers/solana-keys";

function refused(input: unknown, reason: InvalidKeyError["reason"], secretForms: string[] = []): InvalidKeyError {
  let caught: unknown;
  try {
    parsePrivateKey(input);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${JSON.stringify(String(input)).slice(0, 40)} to be refused`).to.be.instanceOf(
    InvalidKeyError,
  );
  const error = caught as InvalidKeyError;
  expect(error.reason).to.equal(reason);
  for (const form of secretForms) expect(error.message).to.not.include(form);
  return error;
}

describe("private keys", () => {
  const keypair = Keypair.generate();
  const forms = keyEncodings(keypair);

  it("accepts a JSON array, base64 (padded or not) and base58 of the same key", () => {
    for (const text of [
      forms.json,
      forms.base64,
      forms.base64.replace(/=+$/, ""),
      forms.base58,
      ` ${forms.base58}\n`,
    ]) {
      expect(parsePrivateKey(text).publicKey.toBase58()).to.equal(keypair.publicKey.toBase58());
    }
    expect(parsePrivateKey([...keypair.secretKey]).publicKey.equals(keypair.publicKey)).to.equal(true);
  });

  it("reads a base58 key that also fits the base64 alphabet as base58", () => {
    // Base58 characters are all base64 characters: the 64-byte decoding with matching halves wins.
    const key = Keypair.fromSeed(new Uint8Array(32).fill(7));
    const text = bs58.encode(key.secretKey);
    expect(text).to.match(/^[A-Za-z0-9+/]+$/);
    expect(parsePrivateKey(text).publicKey.equals(key.publicKey)).to.equal(true);
  });

  it("refuses empty input", () => {
    for (const input of [undefined, null, "", "   "]) refused(input, "empty");
  });

  it("refuses arrays of the wrong length, numbers over 255, negatives and non-integers", () => {
    const bytes = [...keypair.secretKey];
    refused(JSON.stringify(bytes.slice(0, 63)), "length");
    refused(JSON.stringify([...bytes, 1]), "length");
    refused("[]", "length");
    refused(JSON.stringify([256, ...bytes.slice(1)]), "range", [forms.json]);
    refused(JSON.stringify([-1, ...bytes.slice(1)]), "range");
    refused(JSON.stringify([1.5, ...bytes.slice(1)]), "range");
    refused(JSON.stringify(["1", ...bytes.slice(1)]), "range");
    refused(JSON.stringify([null, ...bytes.slice(1)]), "range");
    refused("[1, 2, 3", "format");
    refused({ key: forms.base58 }, "format");
  });

  it("refuses bad characters, wrong lengths and text that is neither base58 nor base64", () => {
    refused(`${forms.base58.slice(0, -1)}_`, "format", [forms.base58]);
    refused(`${forms.base58.slice(0, -1)}0`, "length", [forms.base58]); // '0' is not base58; as base64 it is not 64 bytes
    refused(`${forms.base64.slice(0, 20)}!${forms.base64.slice(21)}`, "format", [forms.base64]);
    refused("not a key at all", "format");
    refused(bs58.encode(keypair.secretKey.subarray(0, 32)), "length"); // the seed alone
    refused(Buffer.from(keypair.secretKey.subarray(0, 48)).toString("base64"), "length");
  });

  it("refuses a key whose public half is not its private half's, without quoting it", () => {
    const other = Keypair.generate();
    const mixed = Buffer.concat([keypair.secretKey.subarray(0, 32), other.publicKey.toBytes()]);
    const mixedForms = [JSON.stringify([...mixed]), mixed.toString("base64"), bs58.encode(mixed)];
    for (const text of mixedForms) {
      const error = refused(text, "mismatch", [...mixedForms, forms.base58, forms.base64]);
      expect(error.message).to.match(/public half/);
    }
  });

  it("parses wallets and checks that the key belongs to the wallet", () => {
    const wallet = parsePublicKey(keypair.publicKey.toBase58());
    expect(wallet.equals(keypair.publicKey)).to.equal(true);
    expect(() => assertKeyOwnsWallet(keypair, wallet)).to.not.throw();
    expect(() => assertKeyOwnsWallet(keypair, Keypair.generate().publicKey)).to.throw(
      InvalidKeyError,
      /does not belong/,
    );
    for (const bad of ["", "0OIl", bs58.encode(new Uint8Array(31)), 42, undefined]) {
      expect(() => parsePublicKey(bad)).to.throw(InvalidKeyError);
    }
  });

  it("refuses megabyte-long keys and wallets before decoding them (base58 decoding is quadratic)", () => {
    const huge = "1".repeat(1 << 20);
    expect(() => parsePrivateKey(huge)).to.throw(InvalidKeyError);
    expect(() => parsePublicKey(huge)).to.throw(InvalidKeyError);
    // Decoding would stall for minutes and trip the test's timeout; the length check refuses at once.
  });
});
