/**
 * The throws (and errors made) of the worker source that no request can cause on its own, each with
 * the reason: the other half of what `test/unit/worker-refusal-sites.test.ts` holds the source to
 * (the refusals requests can cause are in `worker-refusals.ts`).
 */

/** A throw (or error made) in the worker source that no request can cause on its own, and why. */
export interface NotARequestRefusal {
  file: string;
  throwText: string;
  why: string;
}

/** Throws (and errors made) in the worker source that no request can cause on its own. */
export const NOT_REQUEST_REFUSALS: NotARequestRefusal[] = [
  ...["The run reached its time limit", "The run reached its cost limit", "The run reached its limit of"].map(
    (throwText) => ({
      file: "workers/agents/run-budget.ts",
      throwText,
      why: "a ceiling of the run's budget reached while running: the budget is honoured, not refused (budgets are checked at the door by budgetSchema)",
    }),
  ),
  {
    file: "workers/agents/run-budget.ts",
    throwText: "throw new BudgetExceededError(answer.exhausted.exhausted(answer.measure)",
    why: "a shared ceiling (the batch's budget, the account's day) reached while running: honoured, not refused; a request is refused at the door once the account's day is spent",
  },
  {
    file: "workers/agents/run-budget.ts",
    throwText: 'throw new BudgetExceededError(refused.exhausted("cost")',
    why: "a flat charge (a tool fee, an image, an MCP call, a search) does not fit in a shared ceiling (the batch's budget, the account's day) while running: honoured, not refused; a request is refused at the door once the account's day is spent",
  },
  {
    file: "workers/agents/run-charges.ts",
    throwText: "throw err;",
    why: "rethrows the budget's refusal of a flat charge (listed under run-budget.ts) or a Redis fault, after taking the charge back off the run's usage",
  },
  {
    file: "workers/agents/agent-runner.ts",
    throwText: "throw err;",
    why: "rethrows an MCP call's failure (listed under mcp-toolbox.ts) after giving its charge back",
  },
  {
    file: "workers/agents/run-budget.ts",
    throwText: "throw err;",
    why: "Redis failed while reserving a call's room: an infrastructure fault, retried",
  },
  {
    file: "workers/agents/recorded-llm-call.ts",
    throwText: "throw err;",
    why: "the LLM call failed after its reservation was released, passed on: the provider's or the network's fault, or a provider 4xx over something in the request the API cannot know (a limit of one model, such as its largest max_tokens or an option it does not take); what a provider refuses for every model is refused at the door (llm-args.schema.ts)",
  },
  {
    file: "workers/agents/recorded-embedding-call.ts",
    throwText: "throw err;",
    why: "the embeddings call failed (its provider turn settled, its reservation released) or the metrics' count of it, passed on: the provider's or the network's fault, or a provider 4xx over something the API cannot know; what the API can check (the model, the bounds, dimensions) is refused at the door (embedding-request.ts)",
  },
  {
    file: "workers/agents/recorded-embedding-call.ts",
    throwText: "throw new BudgetExceededError(",
    why: "the run's max_cost has no room for the call's price while running: the budget is honoured, not refused (budgets are checked at the door by budgetSchema)",
  },
  {
    file: "workers/agents/recorded-llm-call.ts",
    throwText: "throw new CallCutOff(err, partial);",
    why: "an LLM call cut off part-way (the run's deadline or cancel, a stream failing after output): carries what it consumed to the recorder, which stores it and throws the original error on",
  },
  {
    file: "workers/agents/step-recorder.ts",
    throwText: "if (!(err instanceof CallCutOff)) throw err;",
    why: "passes on a step's call failing before it consumed anything (listed where it is thrown: the LLM call, the tool)",
  },
  {
    file: "workers/agents/step-recorder.ts",
    throwText: "throw err.reason;",
    why: "passes on the error that cut a call off (a run stopping, or the provider failing part-way), once what the call consumed is stored",
  },
  {
    file: "workers/agents/run-budget.ts",
    throwText: "if (signal?.aborted) throw new RunAbortedError(abortReason(signal));",
    why: "a run that has ended (cancelled, past its deadline, stopped by a failing turn beside this one) starts no call: a run stopping, not a request refused",
  },
  {
    file: "workers/agents/llm-slots.ts",
    throwText: "throw signal?.aborted ? new RunAbortedError(abortReason(signal)) : err;",
    why: "the run was cancelled, reached its deadline or the worker drained while its LLM call waited for a slot under LLM_MAX_IN_FLIGHT: a run stopping, not a request refused",
  },
  {
    file: "workers/agents/provider-turns.ts",
    throwText: "throw signal?.aborted ? new RunAbortedError(abortReason(signal)) : err;",
    why: "the run was cancelled, reached its deadline or the worker drained while its LLM call waited for its provider key's turn: a run stopping, not a request refused",
  },
  {
    file: "workers/agents/mcp/mcp-connection.ts",
    throwText: "the tool list did not end",
    why: "the MCP server paginates forever",
  },
  {
    file: "workers/agents/mcp/mcp-connection.ts",
    throwText: "the URL is not valid",
    why: "MCP URLs are checked by the egress rules (owned there); `new URL` takes every URL the schema's `uri()` takes",
  },
  {
    file: "workers/agents/mcp/mcp-connection.ts",
    throwText: "throw signal.reason ?? error",
    why: "the run was cancelled or timed out",
  },
  {
    file: "workers/agents/mcp/mcp-connection.ts",
    throwText: "describeMcpError(error",
    why: "the MCP server failed or refused (headers fetch cannot send are the request's: see REFUSAL_SITES)",
  },
  ...[
    "throw unavailable(`the server answered HTTP",
    "throw unavailable( miss.why",
    'return new AppError(400, "IMAGE_UNAVAILABLE"',
    '"IMAGE_TOO_LARGE"',
  ].map((throwText) => ({
    file: "workers/agents/run-images.ts",
    throwText,
    why: "an image URL's server did not give a usable image when the worker fetched it (an error status, unreachable, slow, over IMAGE_MAX_BYTES): the server's doing at run time, which no check at the door can know",
  })),
  {
    file: "workers/agents/run-images.ts",
    throwText: 'throw new AppError(400, "EGRESS_REFUSED"',
    why: "an image URL the door allowed led, when fetched, to a refused address (a redirect hop, a name resolving elsewhere now): the server's doing at run time; what the door can see is refused there (request-egress.ts)",
  },
  {
    file: "workers/agents/run-images.ts",
    throwText: "throw err; // the run's own stop",
    why: "passes on the run's own stop (cancel, deadline, shutdown) and an image whose bytes are no PNG, JPEG, WebP or GIF (decodeImage's ImageError, below in shared/storage)",
  },
  {
    file: "workers/agents/mcp/mcp-bounded-fetch.ts",
    throwText: "the server's answer is over",
    why: "an MCP server answered past MCP_RESPONSE_MAX_BYTES: the server's doing, which the call reports to the model as a failed tool call",
  },
  {
    file: "workers/agents/mcp/mcp-toolbox.ts",
    throwText: "throw signal?.aborted",
    why: "an MCP server failed, or the run was cancelled",
  },
  {
    file: "workers/agents/mcp/mcp-toolbox.ts",
    throwText: "throw signal.reason ?? error",
    why: "the run was cancelled or timed out",
  },
  {
    file: "workers/swarms/types/planner-worker-tasks.ts",
    throwText: "throw err;",
    why: "rethrows a task's own failure",
  },
  {
    file: "workers/swarms/types/auto.ts",
    throwText: "if (endsTheRun(err)) throw err;",
    why: "rethrows a budget or cancellation stop",
  },
  {
    file: "workers/swarms/swarm-run.ts",
    throwText: "throw new AgentTurnError(label, err)",
    why: "names the agent of another failure",
  },
  { file: "workers/swarms/swarm-run.ts", throwText: "throw err;", why: "rethrows" },
  { file: "workers/swarms/graph-workflow.ts", throwText: "throw err;", why: "rethrows a node's own failure" },
  {
    file: "workers/handlers/graph-workflow.handler.ts",
    throwText: "INVALID_WORKFLOW",
    why: "the backstop of a graph_workflow row that bypassed the API: POST /v1/graph-workflow/completions refuses every such graph with the same graphProblems (400 INVALID_WORKFLOW, before anything is stored; test/integration/graph-workflow.test.ts sends each); the agent and swarm completion probes of worker-refusals.ts cannot reach this endpoint",
  },
  {
    file: "workers/agents/builtin-toolset.ts",
    throwText: "throw err;",
    why: "a built-in tool call ended by the run's cancellation or deadline, passed on; the tool's own failures (provider down, page refused) become text for the model",
  },
  {
    file: "workers/swarms/structured-decision.ts",
    throwText: "DecisionError",
    why: "the model's decision stayed invalid after a repair attempt",
  },
  {
    file: "workers/handlers/run-lifecycle.ts",
    throwText: "throw err;",
    why: "infrastructure trouble handed back to BullMQ for a retry",
  },
  {
    file: "workers/handlers/run-lifecycle.ts",
    throwText: "throw refused;",
    why: "the run's failure could not be written for infrastructure trouble: handed back to BullMQ for a retry",
  },
  {
    file: "workers/agents/step-store.ts",
    throwText: "throw err;",
    why: "a step or charge that could not be stored (Postgres stayed away, or another execution took the run over): the run stops, and the job is retried or ends without writing",
  },
  {
    file: "workers/handlers/run-lifecycle.ts",
    throwText: "err = new BudgetExceededError",
    why: "the run's deadline fell while it ran",
  },
  {
    file: "workers/handlers/run-lifecycle.ts",
    throwText: "is a ${run.kind} run, not ${how.kind}",
    why: "a job whose stored run is of another kind than its job name says: the API stores each job's run with the job's kind, so only a corrupted row causes it",
  },
  ...[
    { file: "workers/handlers/run-lifecycle.ts", throwText: "throw new RunLeasedError(run.id, 0)" },
    { file: "workers/handlers/run-lifecycle.ts", throwText: "throw parkedError(" },
    { file: "workers/handlers/run-parking.ts", throwText: "new RunParkedError(" },
    { file: "workers/handlers/run-parking.ts", throwText: "throw parkedError(" },
    { file: "workers/agents/agent-runner.ts", throwText: "throw new ApprovalPendingError(" },
    { file: "workers/agents/approval-gate.ts", throwText: "new ApprovalPendingError([])" },
  ].map((site) => ({
    ...site,
    why: "an approval gate: the run parks for its client's decision (or its job is delayed again), which is no failure",
  })),
  {
    file: "workers/handlers/run-parking.ts",
    throwText: "waiting for approval",
    why: "a parked run reached its time limit: the budget is honoured, not refused",
  },
  {
    file: "workers/handlers/run-lease.ts",
    throwText: "RunLeasedError",
    why: "another delivery of the job holds the run",
  },
  {
    file: "workers/handlers/run-lease.ts",
    throwText: "another delivery of the job took the run over",
    why: "another delivery of the job took the run over",
  },
  {
    file: "workers/swarms/types/planner-worker-tasks.ts",
    throwText: "new Error(String(err))",
    why: "passes a task's own failure to the tasks waiting on it",
  },
  {
    file: "workers/handlers/token-launch.handler.ts",
    throwText: "The signing key is no longer available",
    why: "a token launch's sealed key expired or was removed (the platform app validates the launch request)",
  },
  {
    file: "workers/handlers/token-launch.handler.ts",
    throwText: "The signing key could not be opened",
    why: "SECRETS_KEY changed under a queued launch",
  },
  {
    file: "workers/handlers/token-launch.handler.ts",
    throwText: "if (!permanent && (!ctx.finalAttempt || ctx.signal?.aborted)) throw err",
    why: "a transient chain failure, retried",
  },
  {
    file: "workers/handlers/token-launch.handler.ts",
    throwText: "throw new UnrecoverableError(message)",
    why: "the chain refused or the retries ran out",
  },
];
