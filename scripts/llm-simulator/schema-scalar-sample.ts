import { nonNegativeInt, type Schema } from "./schema-keywords";

/** A string for `node`: a value of its `format`, else "simulated <hint>", fitted to its length bounds. */
export function sampleString(node: Schema, seed: number, hint: string | undefined): string {
  let value: string;
  switch (node.format) {
    case "date-time":
      value = "2025-01-01T12:00:00Z";
      break;
    case "date":
      value = "2025-01-01";
      break;
    case "time":
      value = "12:00:00Z";
      break;
    case "duration":
      value = "PT1M";
      break;
    case "email":
    case "idn-email":
      value = "simulated@example.com";
      break;
    case "uri":
    case "url":
    case "iri":
    case "uri-reference":
      value = "https://example.com/simulated";
      break;
    case "hostname":
    case "idn-hostname":
      value = "example.com";
      break;
    case "ipv4":
      value = "192.0.2.1";
      break;
    case "ipv6":
      value = "2001:db8::1";
      break;
    case "uuid":
      value = `${seed.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
      break;
    default:
      value = hint ? `simulated ${hint}` : "simulated";
  }
  // Lengths count code points, not UTF-16 units.
  const chars = Array.from(value);
  const min = nonNegativeInt(node.minLength) ?? 0;
  const max = nonNegativeInt(node.maxLength);
  while (chars.length < min) chars.push("x");
  if (max !== undefined && chars.length > max) chars.length = max;
  return chars.join("");
}

function roundFloat(value: number): number {
  return Number(value.toPrecision(12));
}

/** A number within `node`'s bounds and `multipleOf` (1 when allowed), an integer when `integer`. */
export function sampleNumber(node: Schema, integer: boolean): number {
  let lo = -Infinity;
  let hi = Infinity;
  let loExclusive = false;
  let hiExclusive = false;
  if (typeof node.minimum === "number") lo = node.minimum;
  if (typeof node.maximum === "number") hi = node.maximum;
  // Draft 4 uses boolean exclusive flags next to minimum/maximum; later drafts use numbers.
  if (typeof node.exclusiveMinimum === "number" && node.exclusiveMinimum >= lo) {
    lo = node.exclusiveMinimum;
    loExclusive = true;
  } else if (node.exclusiveMinimum === true) loExclusive = true;
  if (typeof node.exclusiveMaximum === "number" && node.exclusiveMaximum <= hi) {
    hi = node.exclusiveMaximum;
    hiExclusive = true;
  } else if (node.exclusiveMaximum === true) hiExclusive = true;

  const tooLow = (v: number) => v < lo || (loExclusive && v <= lo);
  const tooHigh = (v: number) => v > hi || (hiExclusive && v >= hi);

  // 1 is a friendly default (valid for counts, limits, pages); otherwise hug the nearest bound.
  let value = 1;
  if (tooLow(value)) value = lo;
  if (tooHigh(value)) value = hi;

  const step = typeof node.multipleOf === "number" && node.multipleOf > 0 ? node.multipleOf : integer ? 1 : 0;
  if (step > 0) {
    let k = Math.ceil(roundFloat(value / step));
    if (tooLow(roundFloat(k * step))) k += 1;
    if (tooHigh(roundFloat(k * step))) k = Math.floor(roundFloat(value / step));
    if (tooHigh(roundFloat(k * step))) k -= 1;
    value = roundFloat(k * step);
    if (integer && !Number.isInteger(value)) value = Math.ceil(value);
    return value;
  }
  if (tooLow(value)) value = Number.isFinite(hi) ? (lo + hi) / 2 : lo + 1;
  if (tooHigh(value)) value = Number.isFinite(lo) ? (lo + hi) / 2 : hi - 1;
  return value;
}
