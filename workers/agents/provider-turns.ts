import type { ChatRequest } from "../../shared/llm/chat";
import { providerLimiter, type LimitedTarget, type Turn } from "../../shared/llm/provider-limits/provider-limiter";
import { abortReason, RunAbortedError } from "../../shared/llm/run-aborted";
import { currentLlmAccount } from "./llm-account";
import { estimatePromptTokens } from "./prompt-estimate";

/** What a chat call may use at most before it is sent: its prompt's estimate and its output cap. */
export function estimatedCallTokens(request: ChatRequest): number {
  const output = request.max_completion_tokens ?? request.max_tokens ?? 0;
  return estimatePromptTokens(request.messages, request.tools ?? []) + output;
}

/**
 * The turns one LLM call takes under its provider key's shared limits: one before it is sent and
 * one before each retry, each in the current account's line. `settle` tells the limiter what the
 * call really used, against the estimates of every attempt (a refused attempt used nothing).
 */
export class ProviderTurns {
  private readonly turns: Turn[] = [];
  /** Estimated only for a guarded key: an unguarded call costs no pass over its prompt. */
  private estimate = 0;

  constructor(
    private readonly target: LimitedTarget,
    /** The most tokens the call may use (worked out once, and only for a guarded key). */
    private readonly callTokens: () => number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private estimated = (): number => (this.estimate ||= this.callTokens());

  /** Waits for the next turn; a run whose signal fires while it waits ends with `RunAbortedError`. */
  async next(): Promise<void> {
    const { signal } = this;
    try {
      const turn = await providerLimiter.awaitTurn(this.target, currentLlmAccount(), this.estimated, signal);
      if (turn) this.turns.push(turn);
    } catch (err) {
      throw signal?.aborted ? new RunAbortedError(abortReason(signal)) : err;
    }
  }

  /** Corrects the key's token window by what the call used (its tokens in and out, 0 if none reached the provider). */
  settle(usedTokens: number): void {
    if (!this.turns.length) return;
    providerLimiter.settle(
      { keyId: this.turns[0].keyId, estimatedTokens: this.estimate * this.turns.length },
      usedTokens,
    );
  }
}
