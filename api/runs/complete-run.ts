import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { Run, RunOfKind } from "../../shared/db/entities/run.entity";
import type { SteppedKind } from "../../shared/runs/run-kind-catalog";
import type { SplitRequest } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { readyAgents, type RequestAgents, type RunHooks } from "./ready-agents";
import { syncWaitMs, type Prefer } from "../spine/prefer";
import { answerRun } from "../spine/run-answer";
import type { StreamFormat } from "../spine/run-stream";
import { takeEarlierRun } from "../spine/run-attempt";
import { runAndWait } from "../spine/submit-run";
import { awaitRun } from "../spine/wait-for-run";
import { acceptWebhookUrls, webhookUrlOf, withoutWebhookUrl } from "../spine/webhook-url";

/** What a completion endpoint's requests have in common: whether to stream. */
interface RunRequest {
  stream?: boolean | null;
}

/**
 * What sets one kind of single run (an agent completion's agent, a swarm completion's swarm, …) apart in the completion steps:
 * `B` is the body as validated, `R` the request as stored (the same unless `prepare` reshapes it).
 */
export interface CompletionKind<R extends RunRequest, K extends SteppedKind = SteppedKind, B = R> {
  /** Its kind of run, whose job (the catalog's) executes it. */
  kind: K;
  /** The request checked (400 before anything is stored) and made ready: defaults and budget filled in. */
  prepare(body: B, owner: KeyOwner): R;
  /** The request's agents, and what else it connects to. */
  agentsOf(request: R): RequestAgents;
  /** The request with its agents made ready (see `readyAgents`). */
  withAgents(request: R, specs: AgentSpec[]): R;
  /** The request to store with the secrets withheld from it. */
  withholdSecrets(request: R): SplitRequest<R>;
  /** `flex` runs wait behind standard ones in the queue. */
  serviceTier?(request: R): "standard" | "flex" | undefined;
  /** The frames of a streamed run. */
  streamFormat(runId: string, request: R): StreamFormat;
  /** The answer's body, from the succeeded run. */
  present(run: RunOfKind<K>): unknown;
}

/**
 * Agent and swarm completions: checks the request, makes its agents ready (egress, marketplace prompts, publication),
 * stores and queues the run, and answers when it ends: 200 with its result, 202 when the caller
 * does not wait, or its frames when it streams. A request that is another attempt of one that
 * started a run (see `takeEarlierRun`) does none of that: it answers from that run.
 */
export async function completeRun<R extends RunRequest, K extends SteppedKind, B>(
  deps: ApiDeps,
  kind: CompletionKind<R, K, B>,
  body: B,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  const earlier = await takeEarlierRun(deps, owner, kind.kind, prefer, hooks);
  if (earlier) {
    const { run: taken, prefer: waiting } = earlier;
    const request = taken.request as unknown as R; // the request as this kind stored it
    const waitMs = waitFor(request, waiting);
    const run = waitMs === null ? null : await awaitRun(deps, taken.id, waitMs);
    return answer(deps, kind, { runId: taken.id, accountId: owner.userId, request, run }, waiting);
  }
  const webhookUrl = webhookUrlOf(body);
  await acceptWebhookUrls(deps.ds, owner.userId, [{ url: webhookUrl, field: "webhook_url" }]);
  const prepared = kind.prepare(body, owner);
  const specs = await readyAgents(deps, owner.userId, kind.agentsOf(prepared), hooks);
  const { request, secrets } = kind.withholdSecrets(kind.withAgents(prepared, specs));
  const { runId, run } = await runAndWait(
    deps,
    {
      kind: kind.kind,
      request: withoutWebhookUrl(request),
      secrets,
      webhookUrl,
      owner,
      serviceTier: kind.serviceTier?.(request),
      admission: hooks.admission,
      onStored: hooks.attempt?.runFound,
    },
    waitFor(request, prefer),
  );
  return answer(deps, kind, { runId, accountId: owner.userId, request, run }, prefer);
}

const streams = (request: RunRequest, prefer: Prefer) => Boolean(request.stream) && !prefer.respondAsync;

/** How long a request waits for its run: null when it streams or does not wait. */
function waitFor(request: RunRequest, prefer: Prefer): number | null {
  return streams(request, prefer) ? null : syncWaitMs(prefer);
}

/** The answer for a run: its frames, a 202, or its result (or the error it ended in) once it ended. */
function answer<R extends RunRequest, K extends SteppedKind, B>(
  deps: ApiDeps,
  kind: CompletionKind<R, K, B>,
  { runId, accountId, request, run }: { runId: string; accountId: string; request: R; run: Run | null },
  prefer: Prefer,
): Outcome {
  const stream = streams(request, prefer) ? kind.streamFormat(runId, request) : undefined;
  return answerRun(
    deps,
    { runId, accountId, run, kind: kind.kind, stream, present: (ended) => kind.present(ended) },
    prefer,
  );
}
