/**
 * Whether a value is a JSON object. `array.unique` comparators see every item, also those their
 * item schema refuses (null, numbers), and must not throw on them.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
