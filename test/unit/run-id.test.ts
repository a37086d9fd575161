import { expect } from "chai";
import { newRunId } from "../../shared/db/run-id";

describe("newRunId", () => {
  it("gives version 7 UUIDs that sort in the order they were made, as the runs indexes store them", () => {
    const ids = Array.from({ length: 1_000 }, () => newRunId());
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
  });
});
