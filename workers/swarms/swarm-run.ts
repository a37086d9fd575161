import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { RunEventWriter } from "../../shared/queues/run-events";
import type { AgentContext } from "../agents/agent-context";
import { runAgent } from "../agents/agent-runner";
import { agentName } from "../agents/handoffs";
import type { StepRecorder } from "../agents/step-recorder";
import { isRunFailure } from "../handlers/run-failure";
import { AgentTurnError } from "./agent-turn-error";
import { Conversation } from "./conversation";
import { mapParallel } from "./parallel";
import { swarmSystemPrompt } from "./swarm-prompt";

/** How one agent turn of a swarm is run. */
export interface TurnOptions {
  /** Key of the turn's steps, unique and deterministic within the run (e.g. `l0/Writer`). */
  lane: string;
  /** How the team note describes the agent's place (default: who it works with). */
  place?: string;
  /** Whether the turn takes the swarm's image (default: yes, every turn's input holds the task). */
  images?: boolean;
  /** The turn's own image, instead of the swarm's `img` (a grid task's image). */
  image?: string | null;
  /** A complete system prompt, for internal agents. */
  systemPrompt?: string;
  /** Shown as the turn's author in streams (default: the agent's name). */
  label?: string;
  /**
   * Built-in tools the turn gets (`tools_enabled` of an agent run, e.g. `["auto_search"]`), each
   * billed once per run; default none: swarm agents have no per-agent `tools_enabled`.
   */
  toolsEnabled?: string[];
}

/** What the engine gives a swarm type: the request, its agents, the conversation, and turns. */
export class SwarmRun {
  readonly conversation: Conversation;
  /**
   * The concrete type that ran, when the requested type hands the work to another (`auto`); the
   * handler reports it as the response's `swarm_type`.
   */
  ranType?: string;

  constructor(
    readonly request: SwarmRequest,
    readonly agents: AgentSpec[],
    /** The run's starting text: the request's messages, then its task. */
    readonly opening: string,
    readonly swarmType: string,
    readonly ctx: Omit<AgentContext, "depth" | "onText"> & { recorder: StepRecorder },
    readonly events: RunEventWriter | null,
    private readonly parallelLimit: number,
    readonly lanePrefix = "",
  ) {
    this.conversation = new Conversation(opening);
    ctx.recorder.outcomes.expect(agents.map(agentName));
  }

  /** Swarm `max_loops`. */
  get loops(): number {
    return this.request.max_loops;
  }

  /** The agents' names, in request order (built once: every turn's team note reads them). */
  get names(): string[] {
    return (this.agentNames ??= this.agents.map(agentName));
  }

  private agentNames?: string[];

  /**
   * Provider options for internal agents (router, judge, consensus…): those of the first request
   * agent, whose model they also default to, so a client's `llm_args` reach every call of its swarm.
   */
  get internalLlmArgs(): Record<string, unknown> | null {
    return this.agents[0]?.llm_args ?? null;
  }

  /** The same swarm starting from another text, with its own conversation and step lanes (for `tasks`). */
  fork(opening: string, lanePrefix: string): SwarmRun {
    return new SwarmRun(
      this.request,
      this.agents,
      opening,
      this.swarmType,
      this.ctx,
      this.events,
      this.parallelLimit,
      `${this.lanePrefix}${lanePrefix}/`,
    );
  }

  /**
   * Another swarm run inside this one (`auto`'s chosen type, AutoSwarmBuilder's generated swarm):
   * the same opening, budget, usage and events, with its own conversation, its steps under `lane`
   * (so they can never be mistaken for the outer run's on replay), and optionally another type
   * name, other agents, or request fields (e.g. a generated `rearrange_flow`).
   */
  derive(
    lane: string,
    options: { swarmType?: string; agents?: AgentSpec[]; request?: Partial<SwarmRequest> } = {},
  ): SwarmRun {
    const agents = options.agents ?? this.agents;
    const request: SwarmRequest = { ...this.request, ...options.request, ...(options.agents ? { agents } : {}) };
    return new SwarmRun(
      request,
      agents,
      this.opening,
      options.swarmType ?? this.swarmType,
      this.ctx,
      this.events,
      this.parallelLimit,
      `${this.lanePrefix}${lane}/`,
    );
  }

  /** Runs one agent turn on `input` and returns the agent's final content. */
  async turn(agent: AgentSpec, input: string, options: TurnOptions): Promise<unknown> {
    const name = agentName(agent);
    const label = options.label ?? name;
    if (agent.role === "internal" && agent.llm_args == null) agent = { ...agent, llm_args: this.internalLlmArgs };
    this.events?.emit({ type: "agent_start", agent: label });
    this.ctx.recorder.outcomes.started(label);
    try {
      const result = await runAgent(
        agent,
        {
          task: input,
          images: this.turnImages(options),
          systemPrompt:
            options.systemPrompt ?? swarmSystemPrompt(agent, this.request, this.swarmType, this.names, options.place),
          toolsEnabled: options.toolsEnabled,
        },
        {
          ...this.ctx,
          recorder: this.ctx.recorder.lane(`${this.lanePrefix}${options.lane}`),
          depth: 0,
          onText: this.events
            ? (_agent, text) => this.events!.emit({ type: "chunk", agent: label, content: text })
            : undefined,
        },
      );
      this.ctx.recorder.outcomes.finished(label, result.content);
      return result.content;
    } catch (err) {
      // A turn stopped by the run's signal is left started, not ended: the run says why it stopped.
      if (isRunFailure(err)) this.ctx.recorder.outcomes.failed(label, err.message);
      if (isRunFailure(err) && !(err instanceof AgentTurnError)) throw new AgentTurnError(label, err);
      throw err;
    } finally {
      this.events?.emit({ type: "agent_end", agent: label });
    }
  }

  private turnImages(options: TurnOptions): string[] {
    if (options.images === false) return [];
    const image = options.image || this.request.img;
    return image ? [image] : [];
  }

  /** Runs calls in parallel (at most the configured number at once); results in item order. */
  parallel<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
    return mapParallel(items, this.parallelLimit, fn);
  }
}
