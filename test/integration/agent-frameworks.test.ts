import { createOpenAI } from "@ai-sdk/openai";
import { tool as langchainTool } from "@langchain/core/tools";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { expect } from "chai";
import { z } from "zod";
import { harness, type Harness } from "../helpers/harness";
import { callsMentioning } from "../helpers/swarm";

/**
 * Agent frameworks driving Apiary as their model, unchanged, through `POST /v1/chat/completions`:
 * the Vercel AI SDK (`generateText` and `streamText` with tools, their loop of steps) and
 * LangChain JS (`ChatOpenAI.bindTools` and a tool loop, streamed too). Each drives the model
 * through tool calls: the calls come back, the framework runs the tools, the answer uses them.
 */
describe("agent frameworks on /v1/chat/completions (Vercel AI SDK, LangChain)", () => {
  let h: Harness;
  let key: string;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });

  describe("the Vercel AI SDK (ai + @ai-sdk/openai)", () => {
    const ran: string[] = [];
    const weather = tool({
      description: "The weather in a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        ran.push(city);
        return { city, sky: "clear" };
      },
    });
    const model = () => createOpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1` }).chat("gpt-4.1");
    /** The provider's default model object speaks OpenAI's Responses API (`/v1/responses`). */
    const responsesModel = () => createOpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1` })("gpt-4.1");

    it("generateText with tools: the model calls the tool, the SDK runs it, the next step answers from its result", async () => {
      const marker = `ai-generate-${Date.now()}`;
      ran.length = 0;
      const result = await generateText({
        model: model(),
        tools: { weather },
        stopWhen: stepCountIs(3),
        prompt: `What is the weather in Paris? ${marker}`,
      });
      expect(result.steps).to.have.length(2);
      expect(result.steps[0].finishReason).to.equal("tool-calls");
      expect(result.steps[0].toolCalls.map((c) => c.toolName)).to.deep.equal(["weather"]);
      expect(ran).to.have.length(1);
      expect(result.text).to.match(/Using 1 tool result/);
      expect(result.totalUsage.outputTokens).to.be.above(0);
      const [first, second] = callsMentioning(h, marker);
      expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).to.deep.equal(["weather"]);
      expect(second.messages.at(-1)).to.include({ role: "tool" });
    });

    it("streamText with tools: tool-call and tool-result parts stream, then the answer's text", async () => {
      const marker = `ai-stream-${Date.now()}`;
      ran.length = 0;
      const result = streamText({
        model: model(),
        tools: { weather },
        stopWhen: stepCountIs(3),
        prompt: `Weather in Oslo? ${marker}`,
      });
      const kinds: string[] = [];
      let text = "";
      for await (const part of result.fullStream) {
        kinds.push(part.type);
        if (part.type === "text-delta") text += part.text;
        if (part.type === "error") throw part.error;
      }
      expect(kinds).to.include.members(["tool-call", "tool-result", "text-delta", "finish"]);
      expect(kinds.indexOf("tool-call")).to.be.below(kinds.indexOf("text-delta"));
      expect(ran).to.have.length(1);
      expect(text).to.match(/Using 1 tool result/);
      expect(await result.text).to.equal(text);
      expect((await result.totalUsage).outputTokens).to.be.above(0);
    });

    it("the provider's default (the Responses API): generateText and streamText run the same tool loop", async () => {
      ran.length = 0;
      const generated = await generateText({
        model: responsesModel(),
        tools: { weather },
        stopWhen: stepCountIs(3),
        prompt: `Weather in Paris? responses-${Date.now()}`,
      });
      expect(generated.steps).to.have.length(2);
      expect(generated.text).to.match(/Using 1 tool result/);
      const streamed = streamText({
        model: responsesModel(),
        tools: { weather },
        stopWhen: stepCountIs(3),
        prompt: `Weather in Oslo? responses-${Date.now()}`,
      });
      const kinds: string[] = [];
      for await (const part of streamed.fullStream) {
        kinds.push(part.type);
        if (part.type === "error") throw part.error;
      }
      expect(kinds).to.include.members(["tool-call", "tool-result", "text-delta"]);
      expect(await streamed.text).to.match(/Using 1 tool result/);
      expect(ran).to.have.length(2);
    });
  });

  describe("LangChain JS (@langchain/openai)", () => {
    const chat = () =>
      new ChatOpenAI({ model: "gpt-4.1", apiKey: key, configuration: { baseURL: `${h.baseUrl}/v1` }, maxRetries: 0 });
    const weather = langchainTool(async ({ city }: { city: string }) => `clear skies in ${city}`, {
      name: "get_weather",
      description: "The weather in a city",
      schema: z.object({ city: z.string() }),
    });

    it("bindTools and a tool loop: tool_calls come back parsed, ToolMessages go in, the answer uses them", async () => {
      const marker = `lc-${Date.now()}`;
      const model = chat().bindTools([weather]);
      const messages: BaseMessage[] = [new HumanMessage(`Weather in Rome? ${marker}`)];
      const first = (await model.invoke(messages)) as AIMessage;
      expect(first.tool_calls).to.have.length(1);
      const [call] = first.tool_calls!;
      expect(call.name).to.equal("get_weather");
      expect(call.args.city).to.be.a("string");
      expect(call.id).to.match(/^call_/);
      messages.push(first);
      const result = await weather.invoke(call);
      expect(result).to.be.instanceOf(ToolMessage);
      messages.push(result);
      const answer = await model.invoke(messages);
      expect(answer.content).to.match(/Using 1 tool result/);
      expect(answer.usage_metadata!.output_tokens).to.be.above(0);
      const sent = callsMentioning(h, marker);
      expect(sent).to.have.length(2);
      expect(sent[1].messages.map((m: { role: string }) => m.role)).to.deep.equal(["user", "assistant", "tool"]);
    });

    it("streams a tool call in chunks that LangChain joins into one call", async () => {
      const marker = `lc-stream-${Date.now()}`;
      const stream = await chat()
        .bindTools([weather])
        .stream([new HumanMessage(`Weather in Lima? ${marker}`)]);
      let joined;
      for await (const chunk of stream) joined = joined ? joined.concat(chunk) : chunk;
      expect(joined!.tool_calls).to.have.length(1);
      expect(joined!.tool_calls![0].name).to.equal("get_weather");
      expect(joined!.tool_calls![0].args.city).to.be.a("string");
    });
  });
});
