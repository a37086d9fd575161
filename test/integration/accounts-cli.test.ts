import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { hashPassword } from "../../shared/auth/passwords";
import { insertAccount } from "../../shared/db/account-store";
import { postPreSessionForm, getWithSession } from "../helpers/account-forms";
import { accountsCli as accounts } from "../helpers/accounts-cli";
import { harness, type Harness } from "../helpers/harness";

/** The operator's account CLI, run as a process: first admin, password reset, invite, role. */
describe("npm run accounts", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  const signIn = (email: string, password: string) =>
    postPreSessionForm(h.platformUrl, "/platform/sign-in", { email, password, next: "/platform/account" });
  const roleOf = async (email: string) =>
    (await h.deps.ds.query(`SELECT role FROM users WHERE lower(email) = lower($1)`, [email]))[0]?.role;

  it("creates an admin with a password read from stdin, printing no password", async () => {
    const email = `admin-${randomUUID()}@example.test`;
    const password = `stdin-password-${randomUUID()}`;
    const run = await accounts(["create-admin", "--email", email, "--password-stdin"], `${password}\n`);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout + run.stderr).not.to.include(password);
    expect(await roleOf(email)).to.equal("admin");
    expect((await signIn(email, password)).status).to.equal(303);
    expect(
      (await accounts(["create-admin", "--email", email.toUpperCase(), "--password-stdin"], `${password}\n`)).code,
    ).to.equal(1);
  });

  it("creates an admin with a generated password printed once, which signs in", async () => {
    const email = `admin-${randomUUID()}@example.test`;
    const run = await accounts(["create-admin", "--email", email]);
    expect(run.code, run.stderr).to.equal(0);
    const password = run.stdout.trim().split("\n").at(-1)!;
    expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect((await signIn(email, password)).status).to.equal(303);
  });

  it("resets a password and ends the account's sessions", async () => {
    const email = `reset-${randomUUID()}@example.test`;
    await insertAccount(h.deps.ds, { email, passwordHash: await hashPassword("the old password") });
    const session = (await signIn(email, "the old password")).session!;
    expect((await getWithSession(h.platformUrl, "/platform/account", session)).status).to.equal(200);
    const run = await accounts(["reset-password", "--email", email, "--password-stdin"], "the new password\n");
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).not.to.include("the new password");
    expect((await getWithSession(h.platformUrl, "/platform/account", session)).status).to.equal(401);
    expect((await signIn(email, "the old password")).status).to.equal(401);
    expect((await signIn(email, "the new password")).status).to.equal(303);
    expect((await accounts(["reset-password", "--email", `nobody-${randomUUID()}@example.test`])).code).to.equal(1);
  });

  it("makes a one-use invite link, stored only as its hash", async () => {
    const run = await accounts(["invite"]);
    expect(run.code, run.stderr).to.equal(0);
    const link = new URL(run.stdout.trim().split("\n").at(-1)!);
    expect(link.pathname).to.equal("/platform/sign-up");
    const invite = link.searchParams.get("invite")!;
    const [stored] = await h.deps.ds.query(
      `SELECT count(*)::int AS n FROM account_invites WHERE token_hash = encode(sha256($1::bytea), 'hex')`,
      [invite],
    );
    expect(stored.n).to.equal(1);
  });

  it("sets a role by email, and refuses an unknown role or account", async () => {
    const email = `role-${randomUUID()}@example.test`;
    await insertAccount(h.deps.ds, { email, passwordHash: null });
    expect((await accounts(["set-role", "--email", email, "moderator"])).code).to.equal(0);
    expect(await roleOf(email)).to.equal("moderator");
    expect((await accounts(["set-role", "--email", email, "admin"])).code).to.equal(0);
    expect(await roleOf(email)).to.equal("admin");
    expect((await accounts(["set-role", "--email", email, "owner"])).code).to.equal(2);
    expect((await accounts(["set-role", "--email", `nobody-${randomUUID()}@example.test`, "admin"])).code).to.equal(1);
  });
});
