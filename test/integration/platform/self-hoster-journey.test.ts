import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { formatDollars } from "../../../api/pages/page-format";
import { pagesBrowser } from "../../helpers/browser";
import { accountsCli } from "../../helpers/accounts-cli";
import { createPrompt, createUser } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { swarmsClient } from "../../helpers/swarms-sdk";

const PASSWORD = "a long phrase nobody else would pick";

/**
 * `APIARY_SCREENSHOTS=<folder>` saves the pictures the README shows (the marketplace, a run) as the
 * journey passes them: `APIARY_SCREENSHOTS=docs/images npx mocha --config test/.mocharc.json
 * test/integration/platform/self-hoster-journey.test.ts`. Unset, nothing is written.
 */
const SCREENSHOTS = process.env.APIARY_SCREENSHOTS ? resolve(process.env.APIARY_SCREENSHOTS) : null;

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function signIn(page: Page, email: string, next: string): Promise<void> {
  await page.goto(`/platform/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await Promise.all([page.waitForURL(`**${next}`), page.getByRole("button", { name: "Sign in", exact: true }).click()]);
}

const field = (page: Page, name: string) => page.locator(`[data-field="${name}"]`).first();

/**
 * What a new self-hoster does on the first day, in a real Chromium with scripts off, against the
 * platform as `npm start` serves it (open sign-up): the operator makes the first admin with the CLI;
 * a person signs up, signs out and in, makes an API key, runs an agent with it through the hosted
 * API's SDK, finds the run and its cost on the runs page and the same spend as `GET /v1/usage` on
 * the spend page, publishes a prompt, sees it waiting for review; the admin approves it in the
 * queue; and anyone finds it on the marketplace home.
 */
describe("a self-hoster's first day, in the browser", function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  it("signs up, runs an agent with a new key, reads its run and spend, publishes a prompt a moderator approves", async () => {
    const tag = randomUUID().slice(0, 8);
    const adminEmail = `admin-${tag}@example.test`;
    const email = `builder-${tag}@example.test`;

    const admin = await accountsCli(["create-admin", "--email", adminEmail, "--password-stdin"], `${PASSWORD}\n`);
    expect(admin.code, admin.stderr).to.equal(0);
    expect(admin.stdout + admin.stderr).not.to.include(PASSWORD);

    const seller = await createUser(h.deps.ds, `seller-${tag}`);
    for (const [listing, category] of [
      ["Support triage", "support"],
      ["SQL reviewer", "engineering"],
    ]) {
      await createPrompt(h.deps.ds, seller.id, {
        name: `${listing} ${tag}`,
        description: `An approved ${category} prompt of another seller`,
        category,
        tags: `${category}, example`,
      });
    }

    // Sign up (the platform's address sends a newcomer to the marketplace, which links to sign-up).
    const page = await newPage();
    expect((await page.goto("/"))!.status()).to.equal(200);
    await Promise.all([page.waitForURL("**/platform/sign-up**"), page.getByRole("link", { name: "Sign up" }).click()]);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Make my account" }).click();
    expect(await field(page, "viewer-name").innerText()).to.equal(email);

    // Sign out, and back in, straight to the keys page.
    await Promise.all([page.waitForLoadState(), page.getByRole("button", { name: "Sign out" }).click()]);
    expect((await page.goto("/platform/api-keys"))!.status()).to.equal(401);
    await signIn(page, email, "/platform/api-keys");

    await page.getByLabel("Name").fill("first key");
    await Promise.all([
      page.waitForURL("**/platform/api-keys"),
      page.getByRole("button", { name: "Create key" }).click(),
    ]);
    const key = (await field(page, "new-key").innerText()).trim();

    const client = swarmsClient(h.baseUrl, key);
    const answer = await client.agent.run({
      agent_config: { agent_name: "Scout", model_name: "gpt-4o-mini", max_loops: 1 },
      task: `Name three bees (${tag}).`,
    });
    const jobId = (answer as { job_id: string }).job_id;
    expect(jobId).to.be.a("string");
    const steps = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}/steps`, { key });
    expect(steps.status).to.equal(200);
    const runCost = formatDollars(steps.body.total_cost);
    expect(steps.body.total_cost).to.be.greaterThan(0);

    // The run, newest first on the runs page, and its own page.
    await page.getByRole("link", { name: "Runs", exact: true }).click();
    const row = page.locator(`tr[data-job-id="${jobId}"]`);
    expect(await page.locator("tr[data-job-id]").first().getAttribute("data-job-id")).to.equal(jobId);
    expect(await row.locator('[data-field="cost"]').innerText()).to.equal(runCost);
    await Promise.all([page.waitForURL(`**/platform/runs/${jobId}`), row.getByRole("link").click()]);
    expect(await field(page, "status").innerText()).to.equal("success");
    expect(await field(page, "cost").innerText()).to.equal(runCost);
    expect(await field(page, "models").innerText()).to.equal("gpt-4o-mini");
    await screenshot(page, "run");

    // Spend: the same totals as GET /v1/usage over the same 30 days.
    await page.getByRole("link", { name: "Spend", exact: true }).click();
    const usage = await request(h.baseUrl, "GET", "/v1/usage?days=30", { key });
    expect(usage.status).to.equal(200);
    // The usage sums the ledger itself; a bill is the same ledger rounded to millionths (docs/billing.md).
    expect(Math.round(usage.body.totals.cost * 1e6)).to.equal(Math.round(steps.body.total_cost * 1e6));
    expect(await field(page, "total-cost").innerText()).to.equal(formatDollars(usage.body.totals.cost));
    expect(await field(page, "total-calls").innerText()).to.equal(String(usage.body.totals.calls));

    // Publish a prompt from "mine": it waits for review, shown to its owner with its status.
    const name = `Release notes writer ${tag}`;
    await page.getByRole("link", { name: "Mine", exact: true }).click();
    await Promise.all([page.waitForURL(/\/new$/), page.getByRole("link", { name: "New prompt" }).click()]);
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Description", { exact: true }).fill("Turns a list of merged changes into release notes");
    await page
      .getByLabel("Prompt text")
      .fill(
        `Given the merged changes of release ${tag}, write notes a customer can act on: what changed, why, and how.`,
      );
    await page.getByLabel("Use cases (one a line: title: description)").fill("Weekly: Summarise the week's changes");
    await page.getByLabel("Tags (comma-separated)").fill("writing, release");
    await Promise.all([page.waitForURL(/created=1/), page.getByRole("button", { name: "Create" }).click()]);
    const mine = page.locator('[data-field="results"] > li', { hasText: name });
    expect(await mine.locator('[data-field="listing-status"]').innerText()).to.equal("pending");
    const [stored] = await h.deps.ds.query(`SELECT id FROM prompts WHERE name = $1`, [name]);
    expect((await page.goto(`/prompt/${stored.id}`))!.status()).to.equal(200);
    expect(await page.locator("main").innerText()).to.match(/pending/i);

    // Not on the marketplace yet, for anyone.
    const visitor = await newPage();
    await visitor.goto(`/?q=${encodeURIComponent(name)}`);
    expect(await visitor.getByRole("link", { name }).count()).to.equal(0);
    expect((await visitor.goto(`/prompt/${stored.id}`))!.status()).to.equal(404);

    // The admin finds it in the queue (other listings may wait before it) and approves it.
    const moderator = await newPage();
    await signIn(moderator, adminEmail, "/platform/moderation");
    await moderator.getByLabel("Find waiting listings by name or description").fill(tag);
    await Promise.all([
      moderator.waitForURL(/q=/),
      moderator.getByRole("button", { name: "Find", exact: true }).click(),
    ]);
    expect(await moderator.locator('[data-field="queue"] > li').count()).to.equal(1);
    await Promise.all([
      moderator.waitForURL(/done=approved/),
      moderator.getByRole("button", { name: `Approve ${name}` }).click(),
    ]);

    // Anyone finds it on the marketplace home by searching (other suites' listings may fill its first page), and
    // opens its page. The picture is of the home as it opens (run alone, this test's three listings).
    expect((await visitor.goto("/"))!.status()).to.equal(200);
    await screenshot(visitor, "marketplace");
    await visitor.getByLabel("Search names and descriptions").fill(name);
    await Promise.all([visitor.waitForURL(/q=/), visitor.getByRole("button", { name: "Search" }).click()]);
    const found = visitor.getByRole("link", { name });
    expect(await found.count()).to.equal(1);
    expect(await visitor.locator('[data-field="listing-name"]').count()).to.equal(1);
    await Promise.all([visitor.waitForURL(`**/prompt/${stored.id}`), found.click()]);
    expect(await visitor.getByRole("heading", { level: 1 }).innerText()).to.equal(name);
  });
});
