import { expect } from "chai";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { parseArgs } from "../../scripts/llm-simulator/main";
import { createSimulator, type Simulator } from "../../scripts/llm-simulator/server";

type Params = ChatCompletionCreateParamsNonStreaming;
type Schema = { [keyword: string]: any };

/** Adds `sim_*` controls; the SDK forwards unknown body fields untouched. */
function withSim(params: Params, controls: Record<string, unknown>): Params {
  return { ...params, ...controls } as Params;
}

/** Response body as JSON (Node's fetch types it `unknown`). */
async function json(res: Response): Promise<any> {
  return res.json();
}

function user(content: string): ChatCompletionMessageParam[] {
  return [{ role: "user", content }];
}

function functionCalls(calls: unknown[] | undefined): ChatCompletionMessageFunctionToolCall[] {
  return (calls ?? []) as ChatCompletionMessageFunctionToolCall[];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

/** A hand-written validator for the keywords these tests use; returns the problems found. */
function validate(value: any, schema: Schema | boolean, root: Schema, path = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed`];
  if (schema.$ref) {
    const name = String(schema.$ref).replace(/^#\/(\$defs|definitions)\//, "");
    return validate(value, root.$defs?.[name] ?? root.definitions?.[name], root, path);
  }
  const errors: string[] = [];
  if ("const" in schema && JSON.stringify(value) !== JSON.stringify(schema.const))
    errors.push(`${path}: not the const`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (schema.anyOf && !schema.anyOf.some((s: Schema) => validate(value, s, root, path).length === 0)) {
    errors.push(`${path}: matches no anyOf branch`);
  }
  if (schema.type !== undefined) {
    const types: string[] = [].concat(schema.type);
    if (!types.some((t) => hasType(value, t))) return [...errors, `${path}: ${JSON.stringify(value)} is not ${types}`];
  }
  if (hasType(value, "object")) {
    for (const key of schema.required ?? []) if (!(key in value)) errors.push(`${path}: missing ${key}`);
    for (const [key, child] of Object.entries(value)) {
      const sub = schema.properties?.[key];
      if (sub !== undefined) errors.push(...validate(child, sub, root, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected ${key}`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: too many items`);
    if (schema.items) value.forEach((item, i) => errors.push(...validate(item, schema.items, root, `${path}[${i}]`)));
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) errors.push(`${path}: too short`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) errors.push(`${path}: too long`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  return errors;
}

const UNITS = ["celsius", "fahrenheit", "kelvin"];

const WEATHER_PARAMETERS: Schema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 2, maxLength: 40 },
    unit: { type: "string", enum: UNITS },
    days: { type: "integer", minimum: 3, maximum: 7 },
    tags: { type: "array", items: { type: "string", maxLength: 5 }, minItems: 2, maxItems: 3 },
    location: { $ref: "#/$defs/location" },
    note: { type: ["string", "null"] },
    mode: { const: "fast" },
    threshold: { anyOf: [{ type: "number", minimum: 10 }, { type: "string" }] },
  },
  required: ["city", "unit", "days", "location"],
  additionalProperties: false,
  $defs: {
    location: {
      type: "object",
      properties: {
        lat: { type: "number", minimum: -90, maximum: 90 },
        lon: { type: "number", minimum: -180, maximum: 180 },
      },
      required: ["lat", "lon"],
      additionalProperties: false,
    },
  },
};

const TOOLS: ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "get_weather", description: "Weather forecast", parameters: WEATHER_PARAMETERS },
  },
  {
    type: "function",
    function: {
      name: "search",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  },
  { type: "function", function: { name: "noop" } },
];

describe("LLM simulator", function () {
  this.timeout(15_000);
  let sim: Simulator;
  let client: OpenAI;
  let root: string;

  before(async () => {
    sim = await createSimulator({ port: 0 });
    client = new OpenAI({ baseURL: sim.url, apiKey: "sim", maxRetries: 0 });
    root = sim.url.replace(/\/v1$/, "");
  });

  after(async () => {
    await sim?.close();
  });

  beforeEach(() => sim.clearJournal());

  describe("plain completions", () => {
    it("answers in OpenAI's shape with real token counts", async () => {
      const res = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("What is the capital of France?"),
      });
      expect(sim.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(res.object).to.equal("chat.completion");
      expect(res.id).to.match(/^chatcmpl-/);
      expect(res.created).to.be.a("number");
      expect(res.model).to.equal("gpt-4o");
      expect(res.choices).to.have.length(1);
      const { message, finish_reason } = res.choices[0];
      expect(message.role).to.equal("assistant");
      expect(message.content).to.match(/^\[simulated gpt-4o\] /);
      expect(message.content).to.include("What is the capital of France?");
      expect(finish_reason).to.equal("stop");
      expect(res.usage!.prompt_tokens).to.be.greaterThan(0);
      expect(res.usage!.completion_tokens).to.equal(encode(message.content!).length);
      expect(res.usage!.total_tokens).to.equal(res.usage!.prompt_tokens + res.usage!.completion_tokens);
    });

    it("is deterministic, and different conversations get different answers", async () => {
      const ask = (messages: ChatCompletionMessageParam[]) =>
        client.chat.completions.create({ model: "gpt-4.1", messages }).then((r) => r.choices[0].message.content);
      const first = await ask(user("Tell me a joke"));
      expect(await ask(user("Tell me a joke"))).to.equal(first);
      expect(await ask(user("Tell me a story"))).to.not.equal(first);
      // Same last user message, different history: the conversation hash must tell them apart.
      const withSystem = await ask([{ role: "system", content: "Be brief." }, ...user("Tell me a joke")]);
      expect(withSystem).to.not.equal(first);
    });

    it("echoes at most 200 characters of text and counts image parts without echoing them", async () => {
      const long = "lorem ipsum ".repeat(60);
      const res = await client.chat.completions.create({ model: "gpt-4o", messages: user(long) });
      const content = res.choices[0].message.content!;
      expect(content).to.include(long.slice(0, 150));
      expect(content).to.not.include(long.trim().slice(0, 201));
      expect(content.length).to.be.lessThan(330);

      const text = "Describe this picture";
      const url = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ";
      const plain = await client.chat.completions.create({ model: "gpt-4o", messages: user(text) });
      const withImage = await client.chat.completions.create({
        model: "gpt-4o",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text },
              { type: "image_url", image_url: { url } },
            ],
          },
        ],
      });
      expect(withImage.usage!.prompt_tokens - plain.usage!.prompt_tokens).to.equal(85);
      expect(withImage.choices[0].message.content).to.include(text).and.not.include("base64");
    });

    it("truncates to max_tokens / max_completion_tokens with finish_reason length", async () => {
      const params: Params = { model: "gpt-4o", messages: user("Explain photosynthesis in detail") };
      const full = (await client.chat.completions.create(params)).choices[0].message.content!;
      for (const limit of [{ max_tokens: 5 }, { max_completion_tokens: 5 }]) {
        const cut = await client.chat.completions.create({ ...params, ...limit });
        expect(cut.choices[0].finish_reason).to.equal("length");
        const content = cut.choices[0].message.content!;
        expect(cut.usage!.completion_tokens).to.be.within(1, 5).and.equal(encode(content).length);
        expect(content.length).to.be.lessThan(full.length);
        expect(full.startsWith(content)).to.equal(true);
      }
      const roomy = await client.chat.completions.create({ ...params, max_tokens: 500 });
      expect(roomy.choices[0]).to.deep.include({ finish_reason: "stop" });
      expect(roomy.choices[0].message.content).to.equal(full);
    });

    it("refuses an output cap above a listed model's limit as OpenAI does (400 naming the limit); any other known model takes any cap", async () => {
      for (const param of ["max_tokens", "max_completion_tokens"] as const) {
        const err = await client.chat.completions
          .create({ model: "gpt-3.5-turbo", messages: user("long"), [param]: 8192 })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err).to.be.instanceOf(OpenAI.BadRequestError);
        const { error } = err as InstanceType<typeof OpenAI.BadRequestError>;
        expect(error).to.deep.equal({
          message: `${param} is too large: 8192. This model supports at most 4096 completion tokens, whereas you provided 8192.`,
          type: "invalid_request_error",
          param,
          code: null,
        });
      }
      const atLimit = await client.chat.completions.create({
        model: "gpt-3.5-turbo",
        messages: user("hi"),
        max_tokens: 4096,
      });
      expect(atLimit.choices[0].finish_reason).to.equal("stop");
      const unlisted = await client.chat.completions.create({
        model: "o3",
        messages: user("hi"),
        max_tokens: 1e6,
      });
      expect(unlisted.choices[0].finish_reason).to.equal("stop");
    });

    it("uses sim_reply verbatim, still subject to max_tokens, even when tools are offered", async () => {
      const reply = "@Planner please decide: APPROVE";
      const res = await client.chat.completions.create(
        withSim({ model: "gpt-4o", messages: user("Decide"), tools: TOOLS }, { sim_reply: reply }),
      );
      expect(res.choices[0].message.content).to.equal(reply);
      expect(res.choices[0].message.tool_calls).to.equal(undefined);
      const cut = await client.chat.completions.create(
        withSim({ model: "gpt-4o", messages: user("Decide"), max_tokens: 2 }, { sim_reply: reply }),
      );
      expect(cut.choices[0].finish_reason).to.equal("length");
      expect(reply.startsWith(cut.choices[0].message.content!)).to.equal(true);
      expect(cut.choices[0].message.content!.length).to.be.lessThan(reply.length);
    });
  });

  describe("tools", () => {
    it("calls the named function with arguments valid for its schema", async () => {
      const res = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("Weather in Paris?"),
        tools: TOOLS,
        tool_choice: { type: "function", function: { name: "get_weather" } },
      });
      const choice = res.choices[0];
      expect(choice.finish_reason).to.equal("tool_calls");
      expect(choice.message.content).to.equal(null);
      const calls = functionCalls(choice.message.tool_calls);
      expect(calls).to.have.length(1);
      expect(calls[0].id).to.match(/^call_[0-9a-f]+$/);
      expect(calls[0].type).to.equal("function");
      expect(calls[0].function.name).to.equal("get_weather");
      const args = JSON.parse(calls[0].function.arguments);
      expect(validate(args, WEATHER_PARAMETERS, WEATHER_PARAMETERS)).to.deep.equal([]);
      expect(UNITS).to.include(args.unit);
      expect(args).to.include.all.keys("city", "unit", "days", "location");
      expect(args.location).to.have.all.keys("lat", "lon");
      expect(args.days).to.be.within(3, 7);
      expect(args.tags).to.have.length.within(2, 3);
      expect(args.mode).to.equal("fast");
      expect(res.usage!.completion_tokens).to.equal(
        encode(calls[0].function.name).length + encode(calls[0].function.arguments).length,
      );
    });

    it("picks enum values deterministically from the request", async () => {
      const unitFor = async (city: string) => {
        const res = await client.chat.completions.create({
          model: "gpt-4o",
          messages: user(`Weather in ${city}?`),
          tools: TOOLS.slice(0, 1),
          tool_choice: "required",
        });
        return JSON.parse(functionCalls(res.choices[0].message.tool_calls)[0].function.arguments).unit;
      };
      const cities = ["Paris", "Oslo", "Lima", "Rome", "Kyiv", "Cairo", "Quito", "Hanoi"];
      const units = await Promise.all(cities.map(unitFor));
      expect(await unitFor("Paris")).to.equal(units[0]);
      expect(new Set(units).size).to.be.greaterThan(1);
    });

    it("with tool_choice auto calls the first two tools, then answers in text after tool results", async () => {
      const messages: ChatCompletionMessageParam[] = user("Plan my trip");
      const first = await client.chat.completions.create({ model: "gpt-4o", messages, tools: TOOLS });
      const calls = functionCalls(first.choices[0].message.tool_calls);
      expect(calls.map((c) => c.function.name)).to.deep.equal(["get_weather", "search"]);
      expect(new Set(calls.map((c) => c.id)).size).to.equal(2);

      const single = await client.chat.completions.create({
        model: "gpt-4o",
        messages,
        tools: TOOLS,
        parallel_tool_calls: false,
      });
      expect(functionCalls(single.choices[0].message.tool_calls)).to.have.length(1);
      const required = await client.chat.completions.create({
        model: "gpt-4o",
        messages,
        tools: TOOLS,
        tool_choice: "required",
      });
      expect(functionCalls(required.choices[0].message.tool_calls)).to.have.length(1);
      const none = await client.chat.completions.create({
        model: "gpt-4o",
        messages,
        tools: TOOLS,
        tool_choice: "none",
      });
      expect(none.choices[0].message.tool_calls).to.equal(undefined);
      expect(none.choices[0].message.content).to.match(/^\[simulated gpt-4o\]/);

      const followUp: ChatCompletionMessageParam[] = [
        ...messages,
        { role: "assistant", content: null, tool_calls: calls },
        ...calls.map((c) => ({ role: "tool" as const, tool_call_id: c.id, content: `result of ${c.function.name}` })),
      ];
      const final = await client.chat.completions.create({ model: "gpt-4o", messages: followUp, tools: TOOLS });
      expect(final.choices[0].finish_reason).to.equal("stop");
      expect(final.choices[0].message.tool_calls).to.equal(undefined);
      expect(final.choices[0].message.content)
        .to.match(/^\[simulated gpt-4o\] /)
        .and.include("Plan my trip");
    });
  });

  describe("structured outputs", () => {
    it("answers json_schema response formats with a valid JSON document", async () => {
      const schema: Schema = {
        type: "object",
        properties: {
          decision: { type: "string", enum: ["approve", "reject", "escalate"] },
          confidence: { type: "number", minimum: 0, maximum: 1 },
          reasons: { type: "array", items: { $ref: "#/definitions/reason" }, minItems: 1 },
        },
        required: ["decision", "confidence", "reasons"],
        additionalProperties: false,
        definitions: {
          reason: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
            additionalProperties: false,
          },
        },
      };
      const res = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("Should we ship?"),
        response_format: { type: "json_schema", json_schema: { name: "decision", schema, strict: true } },
      });
      expect(res.choices[0].finish_reason).to.equal("stop");
      const value = JSON.parse(res.choices[0].message.content!);
      expect(validate(value, schema, schema)).to.deep.equal([]);
    });

    it("refuses, at once and with 400, a schema whose answer grows without bound (refs reused at every level, a huge minItems or minLength)", async () => {
      // Ten properties, each the next level's definition, ten levels deep: 10^10 values.
      const $defs = Object.fromEntries(
        Array.from({ length: 10 }, (_, level) => [
          `l${level}`,
          {
            type: "object",
            properties: Object.fromEntries(
              Array.from({ length: 10 }, (_, p) => [
                `p${p}`,
                level === 9 ? { type: "string" } : { $ref: `#/$defs/l${level + 1}` },
              ]),
            ),
            required: Array.from({ length: 10 }, (_, p) => `p${p}`),
          },
        ]),
      );
      const schemas: Schema[] = [
        { $ref: "#/$defs/l0", $defs },
        { type: "array", items: { type: "string" }, minItems: 1_000_000_000 },
        { type: "object", properties: { s: { type: "string", minLength: 1_000_000_000 } }, required: ["s"] },
      ];
      for (const schema of schemas) {
        const started = performance.now();
        const err = await client.chat.completions
          .create({
            model: "gpt-4o",
            messages: user("Fill it in."),
            response_format: { type: "json_schema", json_schema: { name: "huge", schema } },
          })
          .catch((e: unknown) => e);
        expect(err).to.be.instanceOf(OpenAI.BadRequestError);
        expect((err as Error).message).to.match(/larger than the simulator generates/);
        expect(performance.now() - started, "ms").to.be.below(2_000);
      }
      expect(sim.journal.map((entry) => entry.status)).to.deep.equal([400, 400, 400]);
    });

    it("answers json_object response formats with a JSON object", async () => {
      const res = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("Give me JSON"),
        response_format: { type: "json_object" },
      });
      const value = JSON.parse(res.choices[0].message.content!);
      expect(value).to.be.an("object").and.not.an("array");
    });
  });

  describe("scripted answers", () => {
    afterEach(() => sim.clearScripts());

    it("answers requests containing a scripted text with the scripted reply, even for json_schema formats", async () => {
      const format = {
        type: "json_schema" as const,
        json_schema: {
          name: "score",
          schema: { type: "object", properties: { quality: { type: "integer" } }, required: ["quality"] },
        },
      };
      sim.script({ contains: "marker-41", reply: '{"quality":1}' });
      sim.script({ contains: "marker-42", reply: '{"quality":9}' });
      const scripted = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("rate this: marker-42"),
        response_format: format,
      });
      expect(scripted.choices[0].message.content).to.equal('{"quality":9}');
      const other = await client.chat.completions.create({
        model: "gpt-4o",
        messages: user("rate this: nothing scripted"),
        response_format: format,
      });
      expect(other.choices[0].message.content).to.not.equal('{"quality":9}');
      const explicit = await client.chat.completions.create(
        withSim({ model: "gpt-4o", messages: user("marker-42") }, { sim_reply: "explicit" }),
      );
      expect(explicit.choices[0].message.content).to.equal("explicit");
    });

    it("takes scripts over HTTP, lists them, and forgets them with DELETE", async () => {
      const bad = await fetch(`${root}/_scripts`, { method: "POST", body: JSON.stringify({ contains: "" }) });
      expect(bad.status).to.equal(400);
      const added = await fetch(`${root}/_scripts`, {
        method: "POST",
        body: JSON.stringify({ contains: "over-http", reply: "scripted over HTTP" }),
      });
      expect(added.status).to.equal(201);
      expect(await json(await fetch(`${root}/_scripts`))).to.deep.equal([
        { contains: "over-http", reply: "scripted over HTTP" },
      ]);
      const res = await client.chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "system", content: "over-http" }, ...user("hi")],
      });
      expect(res.choices[0].message.content).to.equal("scripted over HTTP");
      expect((await fetch(`${root}/_scripts`, { method: "DELETE" })).status).to.equal(204);
      const after = await client.chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "system", content: "over-http" }, ...user("hi")],
      });
      expect(after.choices[0].message.content).to.not.equal("scripted over HTTP");
    });

    it("scripts an error status and a latency for requests whose client cannot add sim_* fields", async () => {
      for (const bad of [{ contains: "x" }, { contains: "x", error: 302 }, { contains: "x", latency_ms: -1 }]) {
        const res = await fetch(`${root}/_scripts`, { method: "POST", body: JSON.stringify(bad) });
        expect(res.status, JSON.stringify(bad)).to.equal(400);
      }
      sim.script({ contains: "script-fails", error: 503 });
      const failed = await client.chat.completions
        .create({ model: "gpt-4o", messages: user("script-fails") }, { maxRetries: 0 })
        .catch((err: unknown) => err);
      expect(failed).to.be.instanceOf(OpenAI.APIError);
      expect((failed as InstanceType<typeof OpenAI.APIError>).status).to.equal(503);

      sim.script({ contains: "script-slow", latency_ms: 300 });
      const started = performance.now();
      await client.chat.completions.create({ model: "gpt-4o", messages: user("script-slow") });
      expect(performance.now() - started).to.be.at.least(290);
      // The request's own controls win over the script's.
      const own = await client.chat.completions
        .create(withSim({ model: "gpt-4o", messages: user("script-fails") }, { sim_error: 418 }), { maxRetries: 0 })
        .catch((err: unknown) => err);
      expect((own as InstanceType<typeof OpenAI.APIError>).status).to.equal(418);
    });
  });

  describe("streaming", () => {
    async function collect(params: Params, controls: Record<string, unknown> = {}) {
      const stream = await client.chat.completions.create({
        ...withSim(params, controls),
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    }

    it("streams the same content as the non-streamed answer, then a usage chunk", async () => {
      const params: Params = { model: "gpt-4o-mini", messages: user("Stream me a friendly greeting please") };
      const whole = await client.chat.completions.create(params);
      const chunks = await collect(params);

      expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0].id)).to.equal(true);
      expect(chunks[0].choices[0].delta.role).to.equal("assistant");
      const pieces = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? "")).filter((p) => p !== "");
      expect(pieces.length).to.be.greaterThan(2);
      expect(pieces.join("")).to.equal(whole.choices[0].message.content);

      const usageChunk = chunks.at(-1)!;
      expect(usageChunk.choices).to.deep.equal([]);
      expect(usageChunk.usage).to.deep.include({
        prompt_tokens: whole.usage!.prompt_tokens,
        completion_tokens: whole.usage!.completion_tokens,
        total_tokens: whole.usage!.total_tokens,
      });
      expect(chunks.at(-2)!.choices[0].finish_reason).to.equal("stop");
    });

    it("streams truncated content and tool-call deltas identical to the non-streamed answer", async () => {
      const truncated: Params = { model: "gpt-4o", messages: user("A long answer please, very long"), max_tokens: 7 };
      const whole = await client.chat.completions.create(truncated);
      const chunks = await collect(truncated);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).to.equal(whole.choices[0].message.content);
      expect(chunks.at(-2)!.choices[0].finish_reason).to.equal("length");

      const withTools: Params = { model: "gpt-4o", messages: user("Plan my weekend"), tools: TOOLS };
      const expected = functionCalls((await client.chat.completions.create(withTools)).choices[0].message.tool_calls);
      const assembled: { id?: string; name?: string; arguments: string }[] = [];
      for (const chunk of await collect(withTools)) {
        for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
          const call = (assembled[delta.index] ??= { arguments: "" });
          call.id ??= delta.id;
          call.name ??= delta.function?.name;
          call.arguments += delta.function?.arguments ?? "";
        }
      }
      expect(assembled).to.deep.equal(
        expected.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
      );
    });
  });

  describe("simulation controls", () => {
    it("waits sim_latency_ms before answering", async () => {
      const started = performance.now();
      await client.chat.completions.create(
        withSim({ model: "gpt-4o", messages: user("slow please") }, { sim_latency_ms: 200 }),
      );
      expect(performance.now() - started).to.be.at.least(200);
    });

    it("spreads sim_latency_ms over a stream, the first chunk after about a third of it", async () => {
      const started = performance.now();
      const stream = await client.chat.completions.create({
        ...withSim({ model: "gpt-4o", messages: user("slow stream") }, { sim_latency_ms: 300 }),
        stream: true,
      });
      let firstAt: number | undefined;
      for await (const _chunk of stream) firstAt ??= performance.now() - started;
      expect(firstAt).to.be.at.least(100);
      expect(performance.now() - started).to.be.at.least(300);
    });

    it("fails with the sim_error status and an OpenAI error body", async () => {
      for (const status of [400, 401, 500, 503]) {
        const err = await client.chat.completions
          .create(withSim({ model: "gpt-4o", messages: user("fail") }, { sim_error: status }))
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err).to.be.instanceOf(OpenAI.APIError);
        expect((err as InstanceType<typeof OpenAI.APIError>).status).to.equal(status);
      }
      const res = await fetch(`${sim.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o", messages: user("rate limit me"), sim_error: 429 }),
      });
      expect(res.status).to.equal(429);
      expect(res.headers.get("retry-after-ms")).to.equal("50");
      expect(res.headers.get("retry-after")).to.equal("0");
      const body = await json(res);
      expect(body.error).to.include.all.keys("message", "type", "code");
      expect(body.error.code).to.equal("rate_limit_exceeded");
    });

    it("asks for the sim_retry_after_ms wait in both retry headers, and refuses a malformed one", async () => {
      const ask = (extra: Record<string, unknown>) =>
        fetch(`${sim.url}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o", messages: user("slow down"), ...extra }),
        });
      const res = await ask({ sim_error: 503, sim_retry_after_ms: 1_500 });
      expect(res.status).to.equal(503);
      expect(res.headers.get("retry-after-ms")).to.equal("1500");
      expect(res.headers.get("retry-after")).to.equal("2");
      const bad = await ask({ sim_error: 429, sim_retry_after_ms: -1 });
      expect(bad.status).to.equal(400);
      expect((await json(bad)).error.param).to.equal("sim_retry_after_ms");
    });

    it("fails only the first sim_error_times identical requests", async () => {
      const params = withSim(
        { model: "gpt-4o", messages: user(`flaky ${Date.now()}`) },
        { sim_error: 500, sim_error_times: 1 },
      );
      const first = await client.chat.completions.create(params).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(first).to.be.instanceOf(OpenAI.InternalServerError);
      const second = await client.chat.completions.create(params);
      expect(second.choices[0].message.content).to.match(/^\[simulated gpt-4o\]/);
      expect(sim.journal.map((e) => e.status)).to.deep.equal([500, 200]);
    });

    it("lets the SDK's own retries get through a 429 using the retry-after-ms hint", async () => {
      const retrying = new OpenAI({ baseURL: sim.url, apiKey: "sim", maxRetries: 2 });
      const params = withSim(
        { model: "gpt-4o", messages: user(`rate ${Date.now()}`) },
        { sim_error: 429, sim_error_times: 2 },
      );
      const res = await retrying.chat.completions.create(params);
      expect(res.choices[0].finish_reason).to.equal("stop");
      expect(sim.journal.map((e) => e.status)).to.deep.equal([429, 429, 200]);
    });
  });

  describe("unknown models", () => {
    const notFound = (model: string) => ({
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      type: "invalid_request_error",
      param: null,
      code: "model_not_found",
    });
    const refusal = (call: Promise<unknown>) =>
      call.then(
        () => undefined,
        (e: unknown) => e as InstanceType<typeof OpenAI.NotFoundError>,
      );

    it("refuses a model name it does not know as OpenAI does (404 model_not_found), streamed or not, and journals it", async () => {
      sim.clearJournal();
      for (const stream of [false, true]) {
        const err = await refusal(client.chat.completions.create({ model: "gtp-4o", messages: user("hi"), stream }));
        expect(err).to.be.instanceOf(OpenAI.NotFoundError);
        expect(err!.error).to.deep.equal(notFound("gtp-4o"));
      }
      expect(sim.journal.map((entry) => entry.status)).to.deep.equal([404, 404]);
      const embedding = await refusal(client.embeddings.create({ model: "text-embeding-3-small", input: "x" }));
      expect(embedding).to.be.instanceOf(OpenAI.NotFoundError);
      expect(embedding!.error).to.deep.equal(notFound("text-embeding-3-small"));
    });

    it("answers the catalogue's models, with or without a routing prefix, and the listed ones", async () => {
      for (const model of [
        "gpt-4o-mini",
        "openai/gpt-4o",
        "claude-sonnet-4-20250514",
        "groq/llama-3.3-70b-versatile",
        "o3",
      ]) {
        const res = await client.chat.completions.create({ model, messages: user("hi") });
        expect(res.model).to.equal(model);
      }
    });

    it("answers any name with the catch-all on (a gateway's behaviour), and refuses it again once off", async () => {
      sim.acceptAnyModel(true);
      try {
        const res = await client.chat.completions.create({ model: "my-own-model", messages: user("hi") });
        expect(res.choices[0].finish_reason).to.equal("stop");
      } finally {
        sim.acceptAnyModel(false);
      }
      const err = await refusal(client.chat.completions.create({ model: "my-own-model", messages: user("hi") }));
      expect(err).to.be.instanceOf(OpenAI.NotFoundError);
    });

    it("starts with the catch-all from the command line (--any-model)", () => {
      expect(parseArgs(["--any-model", "--port", "0"])).to.deep.equal({ host: "127.0.0.1", port: 0, anyModel: true });
    });
  });

  describe("embeddings", () => {
    const post = (body: unknown) =>
      fetch(`${sim.url}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    it("answers unit vectors of the model's size, the same for the same input, in OpenAI's base64 (little-endian float32) when asked", async () => {
      const floats = await client.embeddings.create({
        model: "text-embedding-3-large",
        input: ["bees", "wasps"],
        encoding_format: "float",
      });
      expect(floats.data.map((d) => [d.index, d.embedding.length])).to.deep.equal([
        [0, 3072],
        [1, 3072],
      ]);
      for (const d of floats.data) expect(Math.hypot(...d.embedding)).to.be.closeTo(1, 1e-5);
      expect(floats.data[0].embedding).to.not.deep.equal(floats.data[1].embedding);
      const tokens = encode("bees").length + encode("wasps").length;
      expect(floats.usage).to.deep.equal({ prompt_tokens: tokens, total_tokens: tokens });
      const ids = await client.embeddings.create({ model: "text-embedding-3-large", input: [[1, 2], [3]] });
      expect(ids.usage.prompt_tokens).to.equal(3);
      const raw = await json(await post({ model: "text-embedding-3-large", input: "bees", encoding_format: "base64" }));
      const bytes = Buffer.from(raw.data[0].embedding, "base64");
      const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
      expect(decoded).to.deep.equal(floats.data[0].embedding);
      // The SDK's default: base64, decoded by the SDK itself.
      const sdk = await client.embeddings.create({ model: "text-embedding-3-large", input: "bees" });
      expect(Array.from(sdk.data[0].embedding)).to.deep.equal(floats.data[0].embedding);
    });

    it("shortens a text-embedding-3 vector to dimensions (cut, then unit length again); refuses what OpenAI refuses", async () => {
      const full = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: "bees",
        encoding_format: "float",
      });
      const short = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: "bees",
        dimensions: 4,
        encoding_format: "float",
      });
      const head = full.data[0].embedding.slice(0, 4);
      const scale = Math.hypot(...head);
      short.data[0].embedding.forEach((x, i) => expect(x).to.be.closeTo(head[i] / scale, 1e-6));
      const refusals: [unknown, number, string][] = [
        [{ model: "gpt-4o", input: "bees" }, 404, "model"],
        [{ model: "text-embedding-ada-002", input: "bees", dimensions: 4 }, 400, "dimensions"],
        [{ model: "text-embedding-3-small", input: "bees", dimensions: 1537 }, 400, "dimensions"],
        [{ model: "text-embedding-3-small", input: "" }, 400, "input"],
        [{ model: "text-embedding-3-small", input: [1, "a"] }, 400, "input"],
      ];
      for (const [body, status, param] of refusals) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect((await json(res)).error).to.include({ param, type: "invalid_request_error" });
      }
      const failed = await post({ model: "text-embedding-3-small", input: "bees", sim_error: 503 });
      expect(failed.status).to.equal(503);
      // Apart from the chat requests, which readers of `journal` take for chat bodies.
      expect(sim.journal).to.deep.equal([]);
      expect(await json(await fetch(`${root}/_journal/embeddings`))).to.have.length(8);
      expect(sim.embeddingJournal.map((e) => e.status)).to.deep.equal([200, 200, 404, 400, 400, 400, 400, 503]);
    });
  });

  describe("HTTP surface", () => {
    it("exposes the journal over HTTP and clears it with DELETE", async () => {
      await client.chat.completions.create({ model: "gpt-4o", messages: user("journal me") });
      await fetch(`${sim.url}/chat/completions`, { method: "POST", body: "{not json" });

      const res = await fetch(`${root}/_journal`);
      expect(res.status).to.equal(200);
      const entries = await json(res);
      expect(entries).to.have.length(2);
      expect(entries[0].body.messages).to.deep.equal(user("journal me"));
      expect(entries[0].status).to.equal(200);
      expect(new Date(entries[0].at).toISOString()).to.equal(entries[0].at);
      expect(entries[1].status).to.equal(400);
      expect(sim.journal).to.deep.equal(entries);

      expect((await fetch(`${root}/_journal`, { method: "DELETE" })).status).to.equal(204);
      expect(await json(await fetch(`${root}/_journal`))).to.deep.equal([]);
      expect(sim.journal).to.have.length(0);
    });

    it("rejects invalid requests with 400 and unknown paths with 404, OpenAI style", async () => {
      const post = (body: string) =>
        fetch(`${sim.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body });
      for (const body of ["{not json", JSON.stringify({ model: "gpt-4o" }), JSON.stringify({ messages: user("hi") })]) {
        const res = await post(body);
        expect(res.status, body).to.equal(400);
        const { error } = await json(res);
        expect(error.type).to.equal("invalid_request_error");
        expect(error.message).to.be.a("string").and.not.equal("");
      }
      const missing = await fetch(`${sim.url}/moderations`, { method: "POST", body: "{}" });
      expect(missing.status).to.equal(404);
      expect((await json(missing)).error).to.include.all.keys("message", "type", "code");
    });

    it("accepts requests without an Authorization header", async () => {
      const res = await fetch(`${sim.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "o4-mini", messages: user("no auth") }),
      });
      expect(res.status).to.equal(200);
      expect((await json(res)).choices[0].message.content).to.match(/^\[simulated o4-mini\]/);
    });

    it("lists models", async () => {
      const ids: string[] = [];
      for await (const model of client.models.list()) {
        expect(model).to.include({ object: "model", owned_by: "apiary-simulator" });
        ids.push(model.id);
      }
      expect(ids).to.include.members(["gpt-4.1", "gpt-4o", "gpt-4o-mini", "claude-sonnet-4-20250514"]);
    });
  });
});
