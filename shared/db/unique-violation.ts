/** Whether an error (TypeORM's, or the driver's under it) is a unique index refusing a row: `constraint` names the index. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const cause = e?.driverError ?? e;
  return cause?.code === "23505" && cause?.constraint === constraint;
}
