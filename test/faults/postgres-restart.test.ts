import { useFaultStack } from "./support/fault-stack";
import { expectOutageRiddenOut } from "./support/outage-scenario";

describe("fault: Postgres restarted during load", function () {
  this.timeout(180_000);
  const stackOf = useFaultStack();

  it("answers 503 quickly while Postgres is down, recovers by itself, and loses no run", async () => {
    const { postgres } = stackOf();
    await expectOutageRiddenOut(stackOf(), {
      name: "Postgres",
      stop: () => postgres.stop(),
      start: () => postgres.start(),
    });
  });
});
