import { expect } from "chai";
import OpenAI from "openai";
import { OpenAIEmbeddings } from "@langchain/openai";
import { embed, embedMany } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { runLedger } from "../helpers/ledger";

/** The simulator's embeddings requests whose input mentions `marker`. */
function embeddingCalls(h: Harness, marker: string): any[] {
  return h.sim.embeddingJournal
    .filter((e: any) => JSON.stringify(e.body?.input ?? "").includes(marker))
    .map((e: any) => e.body);
}

/** The Euclidean length of a vector. */
const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((sum, x) => sum + x * x, 0));

/** The embedding runs of an account, oldest first. */
async function embeddingRuns(h: Harness, userId: string): Promise<any[]> {
  return h.deps.ds.query(
    `SELECT id, job_id, kind, status, usage, request FROM runs WHERE user_id = $1 AND kind = 'embedding' ORDER BY queued_at`,
    [userId],
  );
}

/**
 * `POST /v1/embeddings` driven by real clients, unchanged: the `openai` SDK, LangChain's
 * `OpenAIEmbeddings` and the Vercel AI SDK. Each request is an `embedding` run answered by the
 * simulator's deterministic unit vectors, billed per input token as its step is.
 */
describe("OpenAI-compatible embeddings (openai SDK, LangChain, AI SDK)", () => {
  let h: Harness;
  let key: string;
  let userId: string;
  let client: OpenAI;

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
  });

  describe("the openai SDK", () => {
    it("embeds one text: a unit vector of the model's size, the same for the same text, another for another; usage counts its tokens", async () => {
      const marker = `one-${Date.now()}`;
      const first = await client.embeddings.create({ model: "text-embedding-3-small", input: `bees ${marker}` });
      expect(first.object).to.equal("list");
      expect(first.model).to.equal("text-embedding-3-small");
      expect(first.data).to.have.length(1);
      expect(first.data[0]).to.include({ object: "embedding", index: 0 });
      const vector = first.data[0].embedding;
      expect(vector).to.have.length(1536);
      expect(norm(vector)).to.be.closeTo(1, 1e-5);
      expect(first.usage.prompt_tokens).to.be.above(0).and.equal(first.usage.total_tokens);
      // The SDK asked for base64 (its default) and decoded it: the provider was asked for base64 too.
      const [sent] = embeddingCalls(h, marker);
      expect(sent).to.include({ model: "text-embedding-3-small", encoding_format: "base64" });

      const again = await client.embeddings.create({ model: "text-embedding-3-small", input: `bees ${marker}` });
      expect(Array.from(again.data[0].embedding)).to.deep.equal(Array.from(vector));
      const other = await client.embeddings.create({ model: "text-embedding-3-small", input: `wasps ${marker}` });
      expect(Array.from(other.data[0].embedding)).to.not.deep.equal(Array.from(vector));
    });

    it("embeds a batch in input order, as float numbers or as OpenAI's base64 (little-endian float32) when asked", async () => {
      const marker = `batch-${Date.now()}`;
      const input = [`a ${marker}`, `b ${marker}`, `c ${marker}`];
      const floats = await client.embeddings.create({
        model: "text-embedding-3-large",
        input,
        encoding_format: "float",
      });
      expect(floats.data.map((d) => d.index)).to.deep.equal([0, 1, 2]);
      for (const d of floats.data) {
        expect(d.embedding).to.be.an("array").with.length(3072);
        expect(norm(d.embedding)).to.be.closeTo(1, 1e-5);
      }
      const base64 = await client.embeddings.create({
        model: "text-embedding-3-large",
        input,
        encoding_format: "base64",
      });
      for (const [i, d] of base64.data.entries()) {
        expect(d.embedding).to.be.a("string");
        const bytes = Buffer.from(d.embedding as unknown as string, "base64");
        const decoded = Array.from({ length: bytes.length / 4 }, (_, j) => bytes.readFloatLE(j * 4));
        expect(decoded).to.deep.equal(floats.data[i].embedding);
      }
      // Each input alone gets the vector it got in the batch.
      const alone = await client.embeddings.create({
        model: "text-embedding-3-large",
        input: input[1],
        encoding_format: "float",
      });
      expect(alone.data[0].embedding).to.deep.equal(floats.data[1].embedding);
    });

    it("takes token ids (one list or several), and dimensions: the model's vector cut and made unit length again", async () => {
      const ids = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: [1, 2, 3, 4],
        encoding_format: "float",
      });
      expect(ids.data).to.have.length(1);
      expect(ids.usage.prompt_tokens).to.equal(4);
      const lists = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: [
          [1, 2, 3, 4],
          [5, 6],
        ],
        encoding_format: "float",
      });
      expect(lists.data).to.have.length(2);
      expect(lists.usage.prompt_tokens).to.equal(6);
      expect(lists.data[0].embedding).to.deep.equal(ids.data[0].embedding);

      const marker = `dims-${Date.now()}`;
      const full = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: marker,
        encoding_format: "float",
      });
      const short = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: marker,
        dimensions: 64,
        encoding_format: "float",
      });
      expect(short.data[0].embedding).to.have.length(64);
      expect(norm(short.data[0].embedding)).to.be.closeTo(1, 1e-5);
      const head = full.data[0].embedding.slice(0, 64);
      const scale = norm(head);
      short.data[0].embedding.forEach((x, i) => expect(x).to.be.closeTo(head[i] / scale, 1e-6));
      expect(embeddingCalls(h, marker).at(-1)).to.include({ dimensions: 64 });
    });

    it("bills each request as its one step: the run's usage, GET /v1/jobs/{job_id}/steps and GET /v1/usage agree at the embedding price", async () => {
      const payer = await h.newKey();
      const billed = new OpenAI({ apiKey: payer.key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
      const answer = await billed.embeddings.create({
        model: "text-embedding-3-small",
        input: ["The hive hums at dusk. ".repeat(200), "Honey is stored in wax cells. ".repeat(200)],
      });
      const [run] = await embeddingRuns(h, payer.userId);
      expect(run).to.include({ kind: "embedding", status: "succeeded" });
      const tokens = answer.usage.prompt_tokens;
      const price = config.pricing.embeddingPerMTok;
      expect(run.usage).to.deep.equal({
        input_tokens: tokens,
        total_tokens: tokens,
        total_cost: Math.round((tokens / 1e6) * price * 1e6) / 1e6,
      });
      const ledger = await runLedger(h, run.id);
      expect(ledger.steps).to.have.length(1);
      expect(ledger.steps[0]).to.include({ status: "finished", input_tokens: tokens, output_tokens: 0 });
      expect(ledger.charges).to.deep.equal([]);
      expect(ledger.billed).to.be.closeTo(ledger.ledger, 1e-6);

      expect(run.usage.total_cost).to.be.above(0);
      const steps = await request(h.baseUrl, "GET", `/v1/jobs/${run.job_id}/steps`, { key: payer.key });
      expect(steps.status).to.equal(200);
      expect(steps.body).to.include({ total_steps: 1, total_cost: run.usage.total_cost });
      expect(steps.body.steps[0]).to.include({
        role: "embedding",
        model: "text-embedding-3-small",
        input_tokens: tokens,
        output_tokens: 0,
        cost: run.usage.total_cost,
        status: "finished",
      });

      const usage = await request(h.baseUrl, "GET", "/v1/usage", { key: payer.key });
      expect(usage.body.totals).to.include({ calls: 1, input_tokens: tokens, output_tokens: 0, total_tokens: tokens });
      expect(usage.body.totals.cost).to.be.closeTo(run.usage.total_cost, 1e-6);
      expect(usage.body.by_day.map((d: { model: string }) => d.model)).to.deep.equal(["text-embedding-3-small"]);

      const job = await request(h.baseUrl, "GET", `/v1/jobs/${run.job_id}`, { key: payer.key });
      expect(job.body).to.include({ object: "list", model: "text-embedding-3-small" });
      expect(job.body.data).to.have.length(2);
      // As the endpoint answered it: the SDK asked for base64 (and decoded it itself).
      const stored = Buffer.from(job.body.data[1].embedding, "base64");
      const decoded = Array.from({ length: stored.length / 4 }, (_, j) => stored.readFloatLE(j * 4));
      expect(decoded).to.deep.equal(Array.from(answer.data[1].embedding));
    });
  });

  describe("LangChain's OpenAIEmbeddings", () => {
    it("embedQuery and embedDocuments (split into batches of batchSize) get the vectors the openai SDK gets", async () => {
      const marker = `lc-${Date.now()}`;
      const embeddings = new OpenAIEmbeddings({
        model: "text-embedding-3-small",
        apiKey: key,
        batchSize: 2,
        maxRetries: 0,
        configuration: { baseURL: `${h.baseUrl}/v1` },
      });
      const query = await embeddings.embedQuery(`query ${marker}`);
      expect(query).to.have.length(1536);
      const direct = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: `query ${marker}`,
        encoding_format: "float",
      });
      expect(query).to.deep.equal(direct.data[0].embedding);

      const before = (await embeddingRuns(h, userId)).length;
      const docs = [`one ${marker}`, `two ${marker}`, `three ${marker}`];
      const vectors = await embeddings.embedDocuments(docs);
      expect(vectors).to.have.length(3);
      vectors.forEach((v) => expect(norm(v)).to.be.closeTo(1, 1e-5));
      expect(vectors[0]).to.not.deep.equal(vectors[1]);
      // Three documents in batches of two: two requests, two runs.
      expect((await embeddingRuns(h, userId)).length - before).to.equal(2);
    });
  });

  describe("the Vercel AI SDK", () => {
    it("embed and embedMany with createOpenAI({baseURL}).embedding(model), dimensions passed as a provider option", async () => {
      const marker = `ai-${Date.now()}`;
      const openai = createOpenAI({ baseURL: `${h.baseUrl}/v1`, apiKey: key });
      const one = await embed({
        model: openai.embedding("text-embedding-3-small"),
        value: `hello ${marker}`,
        maxRetries: 0,
      });
      expect(one.embedding).to.have.length(1536);
      expect(one.usage.tokens).to.be.above(0);
      const direct = await client.embeddings.create({
        model: "text-embedding-3-small",
        input: `hello ${marker}`,
        encoding_format: "float",
      });
      expect(one.embedding).to.deep.equal(direct.data[0].embedding);

      const many = await embedMany({
        model: openai.textEmbeddingModel("text-embedding-3-large"),
        values: [`x ${marker}`, `y ${marker}`],
        providerOptions: { openai: { dimensions: 128 } },
        maxRetries: 0,
      });
      expect(many.embeddings).to.have.length(2);
      many.embeddings.forEach((v) => expect(v).to.have.length(128));
      expect(embeddingCalls(h, `x ${marker}`).at(-1)).to.include({ dimensions: 128 });
    });
  });
});
