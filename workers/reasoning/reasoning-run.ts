import type { ReasoningRequest, ReasoningTypeName } from "../../shared/contracts/reasoning-request";
import type { SwarmTurn } from "../../shared/contracts/swarm-request";
import { contentText } from "../../shared/swarms/opening";
import { internalAgentSpec } from "../swarms/internal-agent";
import type { SwarmRun } from "../swarms/swarm-run";

/** One of a reasoning type's agents: its name, its job's prompt, and its place in the run. */
export interface RoleAgent {
  name: string;
  /** What the agent is for (the request's `system_prompt` when it replaces a role's default). */
  prompt: string;
  /** How the team note describes its place, e.g. `reasoning before the main agent answers`. */
  place: string;
  /** The agent's own loops over its answer (self-consistency's samples take `max_loops`). */
  loops?: number;
}

/**
 * What the engine gives a reasoning type: the request, its role agents' calls (as swarm turns, so
 * each finished call is a stored step that a retried job replays instead of repeating, and usage
 * and the budget count it), parallel calls, and the turns the output is made of, the task first.
 */
export class ReasoningRun {
  readonly turns: SwarmTurn[];

  constructor(
    readonly request: ReasoningRequest,
    private readonly swarm: SwarmRun,
  ) {
    this.turns = [{ role: "user", content: request.task }];
  }

  get type(): ReasoningTypeName {
    return this.request.swarm_type;
  }

  get task(): string {
    return this.request.task;
  }

  get loops(): number {
    return this.request.max_loops;
  }

  /** A role agent's name: the request's `agent_name`, with the role after it when there is one. */
  nameOf(role?: string): string {
    return role ? `${this.request.agent_name}-${role}` : this.request.agent_name;
  }

  /** The prompt of the agent that gives the answer: the request's `system_prompt`, else the type's default. */
  answerPrompt(fallback: string): string {
    return this.request.system_prompt?.trim() || fallback;
  }

  /**
   * One call of `agent` on `input`, on the request's model and `llm_args`; `lane` keys its stored
   * steps. Its system prompt is the role's prompt and a note naming the agent, the run and its
   * place (and the request's `description`), so logs and tests can tell who made each call.
   */
  async call(agent: RoleAgent, input: string, lane: string): Promise<string> {
    const { model_name, llm_args, description } = this.request;
    const note = `You are ${agent.name}, an agent of the ${this.type} reasoning agent '${this.request.agent_name}', ${agent.place}.`;
    const systemPrompt = [agent.prompt, description && `Purpose: ${description}`, note].filter(Boolean).join("\n\n");
    const spec = {
      ...internalAgentSpec(agent.name, model_name, systemPrompt, "reasoning"),
      llm_args: llm_args ?? null,
      max_loops: agent.loops ?? 1,
    };
    return contentText(await this.swarm.turn(spec, input, { lane, systemPrompt, images: false }));
  }

  /** Records a turn of the output. */
  record(role: string, content: string): void {
    this.turns.push({ role, content });
  }

  /** Runs calls in parallel (at most the configured number at once); results in item order. */
  parallel<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
    return this.swarm.parallel(items, fn);
  }

  /** The task and every turn so far as `<role>: <content>` blocks. */
  transcript(): string {
    return this.turns.map((t) => `${t.role}: ${contentText(t.content)}`).join("\n\n");
  }
}

/** How one reasoning type runs, as docs/reasoning-agents.md defines it; it records its turns on the run. */
export interface ReasoningTypeRunner<T extends ReasoningTypeName = ReasoningTypeName> {
  name: T;
  run(run: ReasoningRun): Promise<void>;
}
