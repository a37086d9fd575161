const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID; ids from outside are checked before they reach a `uuid` column, which would reject them with an error. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
