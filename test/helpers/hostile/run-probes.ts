import type { Agent } from "node:http";
import { errorBodyProblems } from "./error-bodies";
import type { Probe } from "./probe";
import { credentialHeaders } from "./operations";
import { mapBounded, sendRaw, type RawResponse } from "./send";

export interface ProbeOutcome {
  probe: Probe;
  res?: RawResponse;
  /** Everything wrong with the answer; empty when it is as it must be. */
  problems: string[];
}

const REQUEST_TIMEOUT_MS = 30_000;

/** What is wrong with the answer to one probe. */
function answerProblems(probe: Probe, res: RawResponse): string[] {
  const problems: string[] = [];
  const { expect } = probe;
  if (res.status >= 500) problems.push(`a server error (${res.status})`);
  else if (expect.kind === "refused" && res.status < 400) problems.push(`expected a refusal, got ${res.status}`);
  else if (expect.kind === "refused" && expect.statuses && !expect.statuses.includes(res.status))
    problems.push(`expected ${expect.statuses.join(" or ")}, got ${res.status}`);
  else if (expect.kind === "accepted" && res.status >= 400)
    problems.push(`expected the request to be accepted, got ${res.status}`);
  if (res.status >= 400)
    problems.push(...errorBodyProblems(probe.target, res, { outsideOperation: probe.outsideOperation }));
  if (probe.cls === "wrong-method" && res.status === 405) {
    const allow = String(res.headers.allow ?? "")
      .toUpperCase()
      .split(/\s*,\s*/);
    const documented = probe.name.replace(/^.*\(documented: (.*)\)$/, "$1").split(", ");
    const missing = documented.filter((m) => !allow.includes(m));
    if (missing.length || allow.includes(probe.method))
      problems.push(
        `Allow: ${res.headers.allow} does not list exactly the documented methods (${documented.join(", ")})`,
      );
  }
  return problems;
}

/** One line naming the operation, the mutation and the answer, for failure messages. */
export function describeOutcome(outcome: ProbeOutcome): string {
  const { probe, res } = outcome;
  const answer = res ? `${res.status} ${res.text.replace(/\s+/g, " ").slice(0, 240)}` : "no answer";
  return `${probe.target.label} — ${probe.cls}: ${probe.name} → ${answer} — ${outcome.problems.join("; ")}`;
}

/** Sends probes with at most `concurrency` in flight; `keyFor` gives the API key a probe's valid credentials use. */
export async function runProbes(
  probes: Probe[],
  agent: Agent,
  concurrency: number,
  keyFor: (probe: Probe) => string,
): Promise<ProbeOutcome[]> {
  return mapBounded(probes, concurrency, async (probe) => {
    const headers = {
      ...(probe.withCredentials ? credentialHeaders(probe.target, keyFor(probe)) : {}),
      ...probe.headers,
    };
    try {
      const res = await sendRaw(
        probe.target.baseUrl,
        { method: probe.method, path: probe.path, headers, body: probe.body },
        agent,
        REQUEST_TIMEOUT_MS,
      );
      return { probe, res, problems: answerProblems(probe, res) };
    } catch (err) {
      return { probe, problems: [`no answer: ${(err as Error).message}`] };
    }
  });
}
