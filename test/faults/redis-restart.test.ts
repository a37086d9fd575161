import { useFaultStack } from "./support/fault-stack";
import { expectOutageRiddenOut } from "./support/outage-scenario";

describe("fault: Redis restarted during load", function () {
  this.timeout(180_000);
  const stackOf = useFaultStack();

  it("answers 503 quickly while Redis is down, recovers by itself, and loses no run", async () => {
    const { redis } = stackOf();
    // Killed, not shut down: it comes back from its append-only file.
    await expectOutageRiddenOut(stackOf(), {
      name: "Redis",
      stop: () => redis.stop("SIGKILL"),
      start: () => redis.start(),
    });
  });
});
