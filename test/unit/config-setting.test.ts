import { expect } from "chai";
import Joi from "joi";
import { defineDomain, num, oneOf, optionalNum, optionalStr, str } from "../../shared/config/setting";

/** Validates `env` against a domain's rules, as loadConfig does for all domains at once. */
function validate(settings: Record<string, { schema: Joi.Schema }>, env: Record<string, string>) {
  const schema = Joi.object(Object.fromEntries(Object.entries(settings).map(([name, s]) => [name, s.schema])));
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw error;
  return value;
}

describe("configuration settings", () => {
  const domain = defineDomain(
    "Example",
    {
      SIZE: num(Joi.number().integer().default(3), "a size"),
      SCORE: optionalNum(Joi.number().empty(""), "a score"),
      NAME: str(Joi.string().default("bee"), "a name"),
      URL: optionalStr(Joi.string().uri(), "an address"),
      MODE: oneOf(["fast", "slow"] as const, "fast", "a mode"),
    },
    (env, { prefix }: { prefix: string }) => ({
      size: env("SIZE"),
      score: env("SCORE") ?? null,
      name: `${prefix}${env("NAME")}`,
      url: env("URL") ?? null,
      mode: env("MODE"),
    }),
  );

  it("maps validated values, converted and defaulted by Joi, and hands the mapping its dependencies", () => {
    expect(domain.load(validate(domain.settings, {}), { prefix: "a " })).to.deep.equal({
      size: 3,
      score: null,
      name: "a bee",
      url: null,
      mode: "fast",
    });
    const set = { SIZE: "7", SCORE: "2.5", NAME: "wasp", URL: "https://x.example", MODE: "slow" };
    expect(domain.load(validate(domain.settings, set), { prefix: "" })).to.deep.equal({
      size: 7,
      score: 2.5,
      name: "wasp",
      url: "https://x.example",
      mode: "slow",
    });
    expect(domain.load(validate(domain.settings, { SCORE: "" }), { prefix: "" }).score).to.equal(null);
  });

  it("keeps one of a fixed list of words to that list", () => {
    expect(() => validate(domain.settings, { MODE: "medium" })).to.throw(/"MODE" must be one of \[fast, slow\]/);
  });

  it("fails on first load when a rule cannot give its declared type, naming the variable", () => {
    const undefaulted = defineDomain("Broken", { COLOR: str(Joi.string(), "no default, not required") }, (env) =>
      env("COLOR"),
    );
    expect(() => undefaulted.load(validate(undefaulted.settings, {}))).to.throw(/COLOR.*not a string/);
    const mistyped = defineDomain("Broken", { LEVEL: oneOf(["low", "high"] as const, "low", "a level") }, (env) =>
      env("LEVEL"),
    );
    expect(() => mistyped.load({ LEVEL: "medium" })).to.throw(/LEVEL.*not low \| high/);
    const numeric = defineDomain("Broken", { COUNT: num(Joi.number(), "a count") }, (env) => env("COUNT"));
    expect(() => numeric.load({ COUNT: "7" })).to.throw(/COUNT.*string, not a number/);
  });
});
