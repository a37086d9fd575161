import { join } from "node:path";
import { parseJsonObject, type HttpTarget } from "../client/http-target";
import { directTarget } from "../targets/agent-completion-targets";
import type { PeerFolder } from "./peer-install";

const TASK = "Name three uses of honey.";

/** One peer started from its throwaway folder: how to run it, when it is ready, what to send it. */
export interface PeerSpec {
  /** Row name in the table. */
  name: string;
  /** What it does per request, for the table. */
  does: string;
  /** LLM calls per request (the simulator journal should see this many). */
  llmCalls: number;
  folder: PeerFolder;
  /** The command (argv) started in the folder; `port` is a free port. */
  command(node: string, port: number): string[];
  /** A path that answers 200 once the server is ready. */
  readyPath: string;
  /** Its request, at `baseUrl`, against the simulator at `simulatorUrl`. */
  target(baseUrl: string, simulatorUrl: string): HttpTarget;
  /** Processes sharing one server (the LangGraph server serves both graphs): started once, by the first. */
  server: string;
}

function answersTarget(name: string, url: string, body: unknown, calls: number): HttpTarget {
  return {
    name,
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    checkBody(text) {
      const answers = parseJsonObject(text)?.answers;
      return Array.isArray(answers) && answers.length === calls
        ? null
        : `${name}: expected ${calls} answer(s): ${text.slice(0, 300)}`;
    },
  };
}

const completionsTarget = (name: string, url: string, simulatorUrl: string): HttpTarget => ({
  ...directTarget(simulatorUrl),
  name,
  url,
});

const libraryServer = (node: string) => [node, "library-server.mjs"];
// The API server as its CLI runs it locally (`langgraphjs dev`: in-memory storage, no account).
const apiServer = (node: string, port: number) => [
  node,
  join("node_modules", "@langchain", "langgraph-cli", "dist", "cli", "cli.mjs"),
  "dev",
  "--port",
  String(port),
  "--host",
  "127.0.0.1",
  "--no-browser",
  "--no-reload",
];

/** The peers, in table order (Apiary's two rows come after them). */
export const PEERS: PeerSpec[] = [
  {
    name: "koa + openai SDK",
    does: "1 LLM call, proxied (the floor)",
    llmCalls: 1,
    folder: "proxy",
    server: "proxy",
    command: (node) => [node, "proxy-server.mjs"],
    readyPath: "/",
    target: (base, sim) => completionsTarget("proxy", `${base}/v1/chat/completions`, sim),
  },
  {
    name: "Portkey AI gateway",
    does: "1 LLM call, gateway to a custom host",
    llmCalls: 1,
    folder: "portkey",
    server: "portkey",
    command: (node, port) => [
      node,
      join("node_modules", "@portkey-ai", "gateway", "build", "start-server.js"),
      `--port=${port}`,
      "--headless",
    ],
    readyPath: "/",
    target: (base, sim) => {
      const t = completionsTarget("portkey", `${base}/v1/chat/completions`, sim);
      // Portkey's way to reach any OpenAI-compatible server: provider openai with a custom host.
      const headers = {
        "x-portkey-provider": "openai",
        "x-portkey-custom-host": `${sim}/v1`,
        authorization: "Bearer sim",
      };
      return { ...t, headers: { ...t.headers, ...headers } };
    },
  },
  ...(["one", "three"] as const).flatMap((graph): PeerSpec[] => {
    const calls = graph === "one" ? 1 : 3;
    const shape = graph === "one" ? "one-call graph" : "three-parallel-calls graph";
    return [
      {
        name: `LangGraph.js library, ${graph}`,
        does: `${shape}, invoked behind node:http`,
        llmCalls: calls,
        folder: "langgraph",
        server: "langgraph-library",
        command: libraryServer,
        readyPath: "/ok",
        target: (base) => answersTarget(`library-${graph}`, `${base}/${graph}`, { task: TASK }, calls),
      },
      {
        name: `LangGraph.js API server, ${graph}`,
        does: `${shape}, POST /runs/wait (langgraphjs dev)`,
        llmCalls: calls,
        folder: "langgraph",
        server: "langgraph-api",
        command: apiServer,
        readyPath: "/ok",
        target: (base) =>
          answersTarget(`server-${graph}`, `${base}/runs/wait`, { assistant_id: graph, input: { task: TASK } }, calls),
      },
    ];
  }),
];
