import { expect } from "chai";
import { DatabaseError } from "pg";
import { QueryFailedError } from "typeorm";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { ServiceUnavailableError } from "../../shared/errors";
import { asServiceUnavailable, isDatabaseUnavailable, isRedisUnavailable } from "../../shared/unavailable";

function pgError(code: string, message = "server says no"): DatabaseError {
  const err = new DatabaseError(message, message.length, "error");
  err.code = code;
  return err;
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
}

describe("telling a backing service outage from a bug", () => {
  it("knows Postgres going away: refused connections, shutdown SQLSTATEs, dropped connections, wrapped or not", () => {
    expect(isDatabaseUnavailable(socketError("ECONNREFUSED"))).to.equal(true);
    expect(isDatabaseUnavailable(pgError("57P01", "terminating connection due to administrator command"))).to.equal(
      true,
    );
    expect(isDatabaseUnavailable(pgError("57P03", "the database system is shutting down"))).to.equal(true);
    expect(isDatabaseUnavailable(pgError("08006"))).to.equal(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).to.equal(true);
    expect(isDatabaseUnavailable(new QueryFailedError("SELECT 1", [], pgError("57P01")))).to.equal(true);
    expect(
      isDatabaseUnavailable(new AggregateError([socketError("ECONNREFUSED"), socketError("ECONNREFUSED")])),
    ).to.equal(true);
  });

  it("does not mistake query errors for an outage", () => {
    expect(isDatabaseUnavailable(pgError("23505", "duplicate key value violates unique constraint"))).to.equal(false);
    expect(isDatabaseUnavailable(pgError("42P01", 'relation "nope" does not exist'))).to.equal(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).to.equal(false);
    expect(isDatabaseUnavailable(null)).to.equal(false);
  });

  it("knows Redis refusing commands while it is unreachable", () => {
    expect(isRedisUnavailable(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).to.equal(
      true,
    );
    expect(isRedisUnavailable(new Error("Connection is closed."))).to.equal(true);
    expect(isRedisUnavailable(new Error("ERR wrong number of arguments"))).to.equal(false);
  });

  it("turns an outage into a 503 naming the service but not its address, and anything else into null", () => {
    const db = asServiceUnavailable(socketError("ECONNREFUSED"));
    expect(db).to.be.instanceOf(ServiceUnavailableError);
    expect(db).to.include({ status: 503, code: "SERVICE_UNAVAILABLE" });
    expect(db!.message)
      .to.match(/database/)
      .and.not.include("127.0.0.1");
    expect(asServiceUnavailable(new Error("Connection is closed."))!.message).to.match(/Redis/);
    expect(asServiceUnavailable(new RangeError("bug"))).to.equal(null);
  });

  it("retries a worker's database call while Postgres is away, and no other failure", async () => {
    let calls = 0;
    const value = await whenDatabaseAnswers(async () => {
      if (++calls < 3) throw socketError("ECONNREFUSED");
      return "stored";
    });
    expect(value).to.equal("stored");
    expect(calls).to.equal(3);

    let bugCalls = 0;
    const bug = await whenDatabaseAnswers(async () => {
      bugCalls++;
      throw pgError("23505");
    }).catch((e: unknown) => e);
    expect(bug).to.be.instanceOf(DatabaseError);
    expect(bugCalls).to.equal(1);
  });

  it("gives up after its longest wait, pausing between tries", async () => {
    let calls = 0;
    const started = Date.now();
    const err = await whenDatabaseAnswers(
      async () => {
        calls++;
        throw socketError("ECONNREFUSED");
      },
      { maxWaitMs: 250 },
    ).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).to.equal(true);
    // Tries at 0, 100 and 250 ms; the clock's rounding may allow one more at the very end.
    expect(calls).to.be.within(3, 4);
    expect(Date.now() - started).to.be.within(245, 2_000);
  });
});
