import { expect } from "chai";
import { safeHttpUrl, pageDate, storedImagePath } from "../../api/pages/page-format";
import { presentPromptPage } from "../../api/pages/prompt-page.presenter";
import { localPath } from "../../api/pages/sign-in-page";
import {
  createCsrfToken,
  createSignInCsrfToken,
  isValidCsrfToken,
  isValidSignInCsrfToken,
} from "../../api/pages/csrf-tokens";
import { openNewKey, sealNewKey } from "../../api/pages/new-key-flash";
import type { PromptPageRecord } from "../../shared/db/prompt-listing-store";

describe("page parts", () => {
  it("shows only images the platform stored, from its own path", () => {
    const key = `${"ab".repeat(32)}.png`;
    expect(storedImagePath(`http://localhost:8081/uploads/${key}`)).to.equal(`/images/${key}`);
    expect(storedImagePath(`https://bucket.example.com/apiary/${key}`)).to.equal(`/images/${key}`);
    for (const foreign of [
      "https://images.example.com/cover.png",
      `https://images.example.com/${key}?track=1`,
      `https://images.example.com/${"ab".repeat(32)}.svg`,
      "javascript:alert(1)",
      null,
    ])
      expect(storedImagePath(foreign), String(foreign)).to.equal(null);
  });

  it("binds sign-in form tokens to their pre-session, never to a session of the same text", () => {
    const token = createSignInCsrfToken("pre-a");
    expect(isValidSignInCsrfToken("pre-a", token)).to.equal(true);
    expect(isValidSignInCsrfToken("pre-b", token)).to.equal(false);
    expect(isValidSignInCsrfToken("", token)).to.equal(false);
    expect(isValidCsrfToken("pre-a", token)).to.equal(false);
    expect(isValidSignInCsrfToken("pre-a", createCsrfToken("pre-a"))).to.equal(false);
  });

  it("lets only absolute http(s) URLs become links and images", () => {
    expect(safeHttpUrl("https://example.com/a?b=1")).to.equal("https://example.com/a?b=1");
    expect(safeHttpUrl("http://example.com")).to.equal("http://example.com/");
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,x",
      "/relative",
      "//example.com",
      "",
      42,
      null,
    ]) {
      expect(safeHttpUrl(bad), String(bad)).to.equal(null);
    }
  });

  it("sends people only to paths on this site after signing in", () => {
    expect(localPath("/prompt/abc")).to.equal("/prompt/abc");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "/a b", "evil", undefined]) {
      expect(localPath(bad), String(bad)).to.equal("/platform/api-keys");
    }
  });

  it("prints dates in UTC to the minute", () => {
    expect(pageDate(new Date("2025-01-02T03:04:59.999Z"))).to.deep.equal({
      iso: "2025-01-02T03:04:59.999Z",
      text: "2025-01-02 03:04 UTC",
    });
  });

  it("ties form tokens to one session", () => {
    const token = createCsrfToken("session-a");
    expect(isValidCsrfToken("session-a", token)).to.equal(true);
    expect(isValidCsrfToken("session-a", createCsrfToken("session-a"))).to.equal(true);
    expect(isValidCsrfToken("session-b", token)).to.equal(false);
    expect(isValidCsrfToken("session-a", "")).to.equal(false);
    expect(isValidCsrfToken("session-a", undefined)).to.equal(false);
    expect(isValidCsrfToken("session-a", `${token}x`)).to.equal(false);
  });

  it("opens a sealed new key only for the user it was made for, and never a forged one", () => {
    const key = `sk-${"a".repeat(64)}`;
    const sealed = sealNewKey("user-1", "key-1", key);
    expect(sealed).not.to.include(key);
    expect(openNewKey(sealed, "user-1")).to.deep.equal({ keyId: "key-1", key });
    expect(openNewKey(sealed, "user-2")).to.equal(null);
    expect(openNewKey(`${sealed.slice(0, -4)}AAAA`, "user-1")).to.equal(null);
    const plain = Buffer.from(
      JSON.stringify({ userId: "user-1", keyId: "k", key: "sk-fake", until: Date.now() + 60_000 }),
    ).toString("base64url");
    expect(openNewKey(plain, "user-1")).to.equal(null);
    expect(openNewKey(undefined, "user-1")).to.equal(null);
  });

  it("shows a paid prompt's text only when the query handed it over, labelled for the owner", () => {
    const row: PromptPageRecord = {
      id: "p",
      user_id: "owner",
      name: "n",
      description: null,
      prompt: "secret",
      use_cases: [{ title: "T", description: "D" }, "junk", null],
      tags: " a, ,b ",
      is_free: false,
      price_usd: 3,
      price: null,
      category: null,
      status: "approved",
      tokenized_on: false,
      ticker: null,
      token_address: "ignored-when-not-tokenized",
      pool_address: null,
      image_url: "javascript:x",
      links: ["ftp://x", { name: "", url: "" }, 7],
      created_at: new Date("2025-01-01T00:00:00Z"),
      review_count: 0,
      rating_average: null,
      kind: "prompt",
      language: null,
      requirements: [],
      moderation_reason: null,
    };
    const owner = presentPromptPage(row, "owner");
    expect(owner.text).to.deep.equal({ shown: true, value: "secret", ownerOnly: true });
    expect(owner.useCases).to.deep.equal([{ title: "T", description: "D" }]);
    expect(owner.tags).to.deep.equal(["a", "b"]);
    expect(owner.price).to.deep.equal({ free: false, usd: "$3.00", network: null });
    expect(owner.imageUrl).to.equal(null);
    expect(owner.links).to.deep.equal([{ label: "ftp://x", url: null }]);
    expect(owner.token).to.equal(null);
    expect(owner.rating).to.equal(null);
    expect(presentPromptPage({ ...row, prompt: null }, "someone").text).to.deep.equal({ shown: false });
  });
});
