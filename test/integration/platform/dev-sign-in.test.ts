import { expect } from "chai";
import { config } from "../../../shared/config";
import { devSignInLink } from "../../../scripts/start/dev-sign-in";
import { SessionTokens } from "../../../api/auth/session-tokens";
import { harness, type Harness } from "../../helpers/harness";

/** `npm start` prints a sign-in link for the development user: it offers the sign-in, confirmed with one click. */
describe("npm start's development sign-in link", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("carries a session token of the development user that the platform accepts", async () => {
    const link = new URL(await devSignInLink(h.deps.ds, config.platform.session, h.platformUrl));
    expect(link.pathname).to.equal("/platform/sign-in");
    expect(link.searchParams.get("next")).to.equal("/platform/api-keys");
    const verified = await new SessionTokens().verify(link.searchParams.get("token")!);
    const [dev] = await h.deps.ds.query(`SELECT id FROM users WHERE handle = 'dev'`);
    expect(verified?.userId).to.equal(dev.id);
    expect(verified!.expiresAt.getTime() - Date.now()).to.be.within(0, 8 * 3_600_000 + 1_000);

    const res = await fetch(link, { redirect: "manual" });
    expect(res.status).to.equal(200);
    const page = await res.text();
    expect(page).to.include(dev.id).and.include("Sign in as this account");
    // Opening a link signs no one in by itself (login CSRF): the confirmation's form post does.
    expect(res.headers.get("set-cookie")).not.to.match(/apiary_session=/);
  });
});
