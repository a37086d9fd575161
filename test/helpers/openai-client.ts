import { expect } from "chai";
import OpenAI from "openai";

/** What the `openai` SDK throws for a call, or a failure when it does not throw. */
export async function thrown(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (err) {
    expect(err).to.be.instanceOf(OpenAI.APIError);
    return err as InstanceType<typeof OpenAI.APIError>;
  }
  throw new Error("expected the call to throw");
}
