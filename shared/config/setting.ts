import Joi from "joi";

/**
 * How a setting is declared: the environment variable's Joi rule (its default included), one line
 * for docs/configuration.md, and a reader giving the validated value its TypeScript type. Joi
 * converts and checks; Joi's types cannot say what a rule lets through, so the reader checks the
 * value once more instead of a cast, and a rule that cannot produce its type fails on first load.
 */
export interface Setting<T> {
  readonly schema: Joi.Schema;
  readonly describe: string;
  readonly read: (value: unknown, name: string) => T;
}

/** The environment after Joi: converted, defaulted, every rule met. */
export type ValidatedEnv = Readonly<Record<string, unknown>>;

/** Integer TCP port. */
export const port = Joi.number().integer().min(0).max(65535);
/** A duration in milliseconds. */
export const ms = Joi.number().integer().min(1);
/** Dollars. */
export const money = Joi.number().min(0);
/** A positive whole number: a limit, a size, a count. */
export const count = Joi.number().integer().min(1);
/** A share between 0 and 1 (discounts). */
export const fraction = Joi.number().min(0).max(1);
/** An optional key or name that may also be set to the empty string. */
export const optionalString = Joi.string().allow("");

function misdeclared(name: string, value: unknown, expected: string): Error {
  return new Error(`Setting ${name}: its rule let through ${typeof value}, not ${expected}`);
}

function readString(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  throw misdeclared(name, value, "a string");
}

function readOptionalString(value: unknown, name: string): string | undefined {
  return value === undefined ? undefined : readString(value, name);
}

function readNumber(value: unknown, name: string): number {
  if (typeof value === "number") return value;
  throw misdeclared(name, value, "a number");
}

function readOptionalNumber(value: unknown, name: string): number | undefined {
  return value === undefined ? undefined : readNumber(value, name);
}

/** A string that always has a value: its rule gives a default or requires one. */
export function str(schema: Joi.StringSchema, describe: string): Setting<string> {
  return { schema, describe, read: readString };
}

/** A string that may be unset. */
export function optionalStr(schema: Joi.StringSchema, describe: string): Setting<string | undefined> {
  return { schema, describe, read: readOptionalString };
}

/** A number that always has a value: its rule gives a default or requires one. */
export function num(schema: Joi.NumberSchema, describe: string): Setting<number> {
  return { schema, describe, read: readNumber };
}

/** A number that may be unset. */
export function optionalNum(schema: Joi.NumberSchema, describe: string): Setting<number | undefined> {
  return { schema, describe, read: readOptionalNumber };
}

/** One of a fixed list of words, `fallback` when unset; typed as the union of the words. */
export function oneOf<const V extends readonly string[]>(
  values: V,
  fallback: V[number],
  describe: string,
): Setting<V[number]> {
  const isListed = (value: unknown): value is V[number] => values.some((listed) => listed === value);
  return {
    schema: Joi.string()
      .valid(...values)
      .default(fallback),
    describe,
    read: (value, name) => {
      if (isListed(value)) return value;
      throw misdeclared(name, value, values.join(" | "));
    },
  };
}

/** A domain's settings by variable name, each typed by its declaration. */
export type Settings<V> = { readonly [K in keyof V]: Setting<V[K]> };

/** Reads one of a domain's settings, typed by its declaration. */
export type EnvReader<V> = <K extends keyof V>(name: K) => V[K];

/** One group of settings and the part of the configuration made from them. */
export interface ConfigDomain<V, C, D = void> {
  /** Its heading in docs/configuration.md. */
  readonly title: string;
  readonly settings: Settings<V>;
  /** Maps the validated environment to this domain's part of the configuration (`deps`: values from other domains). */
  readonly load: (env: ValidatedEnv, deps: D) => C;
}

/**
 * Declares a domain: its variables (name → setting) and, beside them, the mapping to its part of
 * the configuration. `env("NAME")` in the mapping has the type its declaration gives.
 */
export function defineDomain<V, C, D = void>(
  title: string,
  settings: Settings<V>,
  map: (env: EnvReader<V>, deps: D) => C,
): ConfigDomain<V, C, D> {
  return {
    title,
    settings,
    load: (validated, deps) => map((name) => settings[name].read(validated[String(name)], String(name)), deps),
  };
}
