import { BodyProbes } from "./body-probes";
import type { DocumentedOperation } from "./operations";
import type { Probe, ProbeSettings } from "./probe";
import { RequestProbes, unknownPathProbes, wrongMethodProbes } from "./request-probes";

/** Every probe of every operation, then the undocumented methods of each path and paths no operation has. */
export function allProbes(operations: DocumentedOperation[], settings: ProbeSettings): Probe[] {
  const perOperation = operations.flatMap((op) => [
    ...new BodyProbes(op, settings).build(),
    ...new RequestProbes(op, settings).build(),
  ]);
  return [...perOperation, ...wrongMethodProbes(operations), ...unknownPathProbes(operations)];
}
