import type { SwarmTurn } from "../../shared/contracts/swarm-request";
import { contentText } from "../../shared/swarms/opening";

/**
 * The turns of one swarm run, in the order the swarm type records them (never completion order),
 * each attributed to the agent that produced it. `opening` is where the run started: the request's
 * `messages` and `task`.
 */
export class Conversation {
  readonly turns: SwarmTurn[] = [];

  constructor(readonly opening: string) {}

  add(turn: SwarmTurn): void {
    this.turns.push(turn);
  }

  /**
   * The transcript of docs/swarm-types.md ("Common rules"): the opening followed by every turn so far (or the first `upTo`) as
   * `<agent name>: <content>` blocks.
   */
  transcript(upTo = this.turns.length): string {
    const blocks = this.turns.slice(0, upTo).map((t) => `${t.role}: ${contentText(t.content)}`);
    return [this.opening, ...blocks].join("\n\n");
  }
}
