import { contentText } from "../../../shared/swarms/opening";
import type { SwarmTypeRunner } from "../swarm-type-runner";

/**
 * DebateWithJudge (docs/swarm-types.md): exactly three agents, Pro, Con and Judge, in
 * request order. Each round Pro argues for, Con argues against Pro, and the Judge evaluates both
 * and synthesises; in the next round Pro, Con and the Judge all build on that synthesis, and the
 * last Judge turn gives the verdict. Output is `[Pro, Con, Judge]` per round under the agents' names. Calls and depth 3·L.
 */
export const debateWithJudge: SwarmTypeRunner<"DebateWithJudge"> = {
  name: "DebateWithJudge",
  async run(swarm) {
    const [pro, con, judge] = swarm.agents;
    const [proName, conName, judgeName] = swarm.names;
    const topic = `Debate topic:\n${swarm.opening}`;
    let synthesis: string | null = null;
    for (let loop = 0; loop < swarm.loops; loop++) {
      const last = loop === swarm.loops - 1;
      const proInput =
        synthesis === null
          ? `${topic}\n\nArgue for it: make the strongest case you can.`
          : `${topic}\n\n${judgeName}'s synthesis of the previous round:\n${synthesis}\n\nArgue for the topic again, building on this synthesis and answering the objections it raises.`;
      const proArgument = contentText(
        await swarm.turn(pro, proInput, {
          lane: `l${loop}/pro`,
          place: `arguing for the topic against ${conName}, judged by ${judgeName}`,
        }),
      );
      swarm.conversation.add({ role: proName, content: proArgument });

      // From round 2 every side builds on the last synthesis (docs/swarm-types.md), not only Pro.
      const previous = synthesis === null ? "" : `${judgeName}'s synthesis of the previous round:\n${synthesis}\n\n`;
      const conInput = `${topic}\n\n${previous}${proName} argued for it:\n${proArgument}\n\nArgue against: rebut ${proName}'s argument and make the case against the topic.`;
      const conArgument = contentText(
        await swarm.turn(con, conInput, {
          lane: `l${loop}/con`,
          place: `arguing against the topic and against ${proName}, judged by ${judgeName}`,
        }),
      );
      swarm.conversation.add({ role: conName, content: conArgument });

      // Only the last round asks for the verdict; earlier ones feed the next round a synthesis.
      const ask = last
        ? "This is the final round: evaluate both arguments and give your verdict on the topic, with the reasons that decide it."
        : "Evaluate both arguments and synthesise the strongest points of each into a position for the next round to debate.";
      const judgeInput = `${topic}\n\n${previous}${proName} (for):\n${proArgument}\n\n${conName} (against):\n${conArgument}\n\n${ask}`;
      synthesis = contentText(
        await swarm.turn(judge, judgeInput, {
          lane: `l${loop}/judge`,
          place: `judging the debate between ${proName} (for) and ${conName} (against)`,
        }),
      );
      swarm.conversation.add({ role: judgeName, content: synthesis });
    }
    return swarm.conversation.turns;
  },
};
