import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { localSecret } from "../../scripts/start/local-secret";

/** `npm start`'s secrets for a checkout (the Bull Board password): random, made once, private to their owner. */
describe("npm start's local secrets", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "apiary-local-secret-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("makes a random secret once, keeps it readable by its owner only, and gives it back on the next start", async () => {
    const file = join(dir, ".data", "admin-password");
    const first = await localSecret(file, 18);
    expect(first).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect((await readFile(file, "utf8")).trim()).to.equal(first);
    expect(await localSecret(file, 18)).to.equal(first);
    // Another checkout gets another one: nothing about it is in the repository.
    expect(await localSecret(join(dir, "other", "admin-password"), 18)).not.to.equal(first);
  });
});
