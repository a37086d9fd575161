/**
 * The peers' own code, written into their throwaway folders by `peer-install.ts`. Kept as text
 * rather than as files in the repository: it runs against packages the project does not depend on
 * (installed under `.bench/peers/` only), so the project's compiler, linter and `knip` must not
 * try to resolve it. Each server reads the simulator's address from SIMULATOR_URL and its port
 * from PORT, and prints `listening on <port>` when ready.
 */

/** The floor: Koa, one `openai` SDK call to the simulator, the completion as JSON. */
export const PROXY_SERVER = `import Koa from "koa";
import OpenAI from "openai";

const client = new OpenAI({ apiKey: "sim", maxRetries: 0, baseURL: \`\${process.env.SIMULATOR_URL}/v1\` });
const app = new Koa();
app.use(async (ctx) => {
  const chunks = [];
  for await (const c of ctx.req) chunks.push(c);
  const { model, messages } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  ctx.body = await client.chat.completions.create({ model, messages });
});
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(\`listening on \${process.env.PORT}\`));
`;

/** Two LangGraph.js graphs: one LLM call, and three LLM calls in parallel (fan-out from START). */
export const GRAPHS = `import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";

const llm = new ChatOpenAI({
  model: "gpt-4.1",
  apiKey: "sim",
  maxRetries: 0,
  configuration: { baseURL: \`\${process.env.SIMULATOR_URL}/v1\` },
});
const State = Annotation.Root({
  task: Annotation(),
  answers: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
const ask = async (state) => {
  const reply = await llm.invoke([
    ["system", "You are concise."],
    ["user", state.task],
  ]);
  return { answers: [String(reply.content)] };
};
export const one = new StateGraph(State).addNode("agent", ask).addEdge(START, "agent").addEdge("agent", END).compile();
const fan = new StateGraph(State);
for (const name of ["a1", "a2", "a3"]) fan.addNode(name, ask).addEdge(START, name).addEdge(name, END);
export const three = fan.compile();
`;

/** LangGraph.js as a library: a bare node:http server invoking a graph per request (/one, /three). */
export const LIBRARY_SERVER = `import { createServer } from "node:http";
import { one, three } from "./graphs.mjs";

const graphs = { "/one": one, "/three": three };
createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    try {
      const graph = graphs[req.url];
      if (!graph) throw new Error(\`no graph at \${req.url}\`);
      const { task } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const out = await graph.invoke({ task });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ answers: out.answers }));
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log(\`listening on \${process.env.PORT}\`));
`;

/** The LangGraph API server's configuration: the same two graphs as assistants "one" and "three". */
export const LANGGRAPH_JSON = `${JSON.stringify({
  node_version: "20",
  graphs: { one: "./graphs.mjs:one", three: "./graphs.mjs:three" },
  env: {},
})}\n`;
