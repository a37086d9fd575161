import type { AdvancedResearchRun } from "../../shared/db/entities/run.entity";
import { runAdvancedResearch } from "../research/advanced-research";
import { researchUsage } from "../research/research-usage";
import { finishBatch } from "./batch-parent";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** `POST /v1/advanced-research/completions` (and each batch item): one research session. */
export const handleAdvancedResearch: Handler<"advanced-research"> = ({ runId }, ctx) =>
  executeRun<AdvancedResearchRun>(runId, ctx, {
    kind: "advanced_research",
    async execute({ run, recorder, budget, usage, signal }) {
      // The request holds no secrets (no MCP servers, no keys): it is used as stored.
      const output = await runAdvancedResearch(run.request, { recorder, budget, usage, signal, depth: 0 });
      return { output, usage: researchUsage(usage), log: { sources: output.sources, searches: usage.builtinCalls } };
    },
    usageSoFar: ({ usage }) => researchUsage(usage),
  });

/** The advanced research batch's parent job: records the batch once every session has ended. */
export const handleAdvancedResearchBatch: Handler<"advanced-research-batch"> = ({ runId }, ctx) =>
  finishBatch(runId, ctx, (child) => (child.kind === "advanced_research" ? child.usage : null) ?? {});
