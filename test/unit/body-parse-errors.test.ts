import { expect } from "chai";
import { rethrowBodyParseError } from "../../api/http/body";
import { AppError } from "../../shared/errors";

/** raw-body's error for a request stream that can no longer be read (it reports a 500). */
function notReadable(): Error {
  return Object.assign(new Error("stream is not readable"), { type: "stream.not.readable", status: 500 });
}

describe("body parse errors (api/http/body.ts)", () => {
  it("a client that closed its connection before its body was read is its own 400, not our 500", () => {
    let thrown: unknown;
    try {
      rethrowBodyParseError(notReadable(), { req: { destroyed: true, complete: false } });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(AppError);
    expect(thrown).to.include({ status: 400, code: "REQUEST_ABORTED" });
  });

  it("a client that left while its body was being read is the same 400, not raw-body's bare one", () => {
    const cutShort = Object.assign(new Error("request aborted"), { type: "request.aborted", status: 400 });
    let thrown: unknown;
    try {
      rethrowBodyParseError(cutShort, { req: { destroyed: true, complete: false } });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.include({ status: 400, code: "REQUEST_ABORTED" });
  });

  it("a stream that cannot be read while the client is still there stays the error it is", () => {
    const err = notReadable();
    expect(() => rethrowBodyParseError(err, { req: { destroyed: false, complete: false } })).to.throw(err);
    // Read in full already (Node destroys such a request too): reading it again is our bug, a 500.
    expect(() => rethrowBodyParseError(err, { req: { destroyed: true, complete: true } })).to.throw(err);
    expect(() => rethrowBodyParseError(err)).to.throw(err);
  });
});
