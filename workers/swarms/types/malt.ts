import { contentText } from "../../../shared/swarms/opening";
import { jobTurn } from "../internal-agent";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { CONSENSUS, renderVote, voteOnRefinements } from "./malt-vote";

/**
 * Independent samples per stage: the verifier checks each answer this many times in parallel, and
 * each check gets one refinement (the reference framework and the MALT paper both use 3).
 */
const MALT_SAMPLES = 3;

/** The Generator's input: the task, then (from loop 2) the previous loop's answer to improve on. */
function generatorInput(task: string, previous: string | null): string {
  if (previous === null) return task;
  return `${task}\n\nThe answer of the previous round, after verification and refinement:\n${previous}\n\nWrite a better answer: keep what holds up and fix what does not.`;
}

/**
 * MALT (multi-agent LLM training, run here as inference): exactly three agents, Generator,
 * Verifier and Refiner, in request order. Each loop the Generator answers; the Verifier checks that
 * answer MALT_SAMPLES times in parallel (independent samples, numbered); the Refiner rewrites the
 * answer once per check, in parallel, each refinement seeing the answer and its own check; an
 * internal Consensus agent takes the majority vote over the refinements. Loop r>1 starts from the
 * previous loop's chosen answer. Calls (2·S+2)·L, depth 4·L. Output per loop: the Generator turn,
 * the S Verifier turns and the S Refiner turns in sample order (each with `sample`), the Consensus
 * turn, whose content ends with the chosen answer.
 */
export const malt: SwarmTypeRunner<"MALT"> = {
  name: "MALT",
  async run(swarm) {
    const [generator, verifier, refiner] = swarm.agents;
    const [generatorName, verifierName, refinerName] = swarm.names;
    const samples = Array.from({ length: MALT_SAMPLES }, (_, i) => i + 1);
    const task = swarm.opening;
    let previous: string | null = null;
    for (let loop = 0; loop < swarm.loops; loop++) {
      const answer = contentText(
        await swarm.turn(generator, generatorInput(task, previous), {
          lane: `l${loop}/generator`,
          place: `writing the answer that ${verifierName} checks and ${refinerName} refines`,
        }),
      );
      swarm.conversation.add({ role: generatorName, content: answer });

      const answerBlock = `Task:\n${task}\n\n${generatorName}'s answer:\n${answer}`;
      const checks = await swarm.parallel(samples, async (k) =>
        contentText(
          await swarm.turn(
            verifier,
            `${answerBlock}\n\nVerify this answer (independent check ${k} of ${MALT_SAMPLES}): check every step and claim, name each error, gap or unsupported claim, and say what must change.`,
            {
              lane: `l${loop}/verify${k}`,
              place: `checking ${generatorName}'s answer, one of ${MALT_SAMPLES} independent checks; ${refinerName} refines the answer from your check`,
            },
          ),
        ),
      );
      checks.forEach((content, i) => swarm.conversation.add({ role: verifierName, content, sample: i + 1 }));

      const refinements = await swarm.parallel(samples, async (k) =>
        contentText(
          await swarm.turn(
            refiner,
            `${answerBlock}\n\n${verifierName}'s check ${k} of ${MALT_SAMPLES}:\n${checks[k - 1]}\n\nRefine the answer: fix every problem the check found that is real, keep what is right, and write the complete improved answer.`,
            {
              lane: `l${loop}/refine${k}`,
              place: `refining ${generatorName}'s answer from ${verifierName}'s check, one of ${MALT_SAMPLES} independent refinements`,
            },
          ),
        ),
      );
      refinements.forEach((content, i) => swarm.conversation.add({ role: refinerName, content, sample: i + 1 }));

      const vote = await voteOnRefinements(swarm, task, refinements, `l${loop}/vote`);
      previous = refinements[vote.chosen - 1];
      swarm.conversation.add(jobTurn(CONSENSUS, CONSENSUS, renderVote(vote, MALT_SAMPLES, previous)));
    }
    return swarm.conversation.turns;
  },
};
