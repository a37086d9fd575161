import { BadRequestError } from "../../shared/errors";
import { unofferedBuiltinTools } from "../../shared/tools/builtin-tools";

/**
 * Refuses (400, before anything is stored) a request whose `tools_enabled` names a built-in tool
 * this deployment does not offer, naming the tool and where it was asked for: running the agent
 * without the tool it was promised would answer from stale knowledge while looking grounded.
 */
export function assertBuiltinToolsOffered(
  items: readonly { tools_enabled?: string[] | null }[],
  where: (i: number) => string,
): void {
  const problems = items.flatMap((item, i) =>
    unofferedBuiltinTools(item.tools_enabled).map((tool) => `${where(i)}: "${tool}" is not offered here`),
  );
  if (problems.length)
    throw new BadRequestError(
      `${problems.join("; ")} (GET /v1/tools/available lists the built-in tools this deployment offers)`,
      {},
      "TOOL_NOT_AVAILABLE",
    );
}
