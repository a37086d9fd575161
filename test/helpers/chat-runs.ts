import { expect } from "chai";
import type { ChatCompletionRun } from "../../shared/db/entities/run.entity";
import { findRun } from "../../shared/db/runs/run-rows";
import type { Harness } from "./harness";

/** The run behind a chat completion: its id is `chatcmpl-` and the run id's hex. */
export async function chatRunOf(h: Harness, completionId: string): Promise<ChatCompletionRun> {
  const hex = completionId.replace(/^chatcmpl-/, "");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const run = await findRun(h.deps.ds, id);
  expect(run, `run ${id}`).to.exist;
  return run as ChatCompletionRun;
}
