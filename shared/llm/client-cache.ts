import OpenAI from "openai";
import { config } from "../config";
import { nodeHttpFetch } from "./node-http-fetch";
import { providerLimiter } from "./provider-limits/provider-limiter";
import type { ResolvedModel } from "./providers";

const clients = new Map<string, OpenAI>();

/**
 * One SDK client per endpoint and key, reused so connections stay alive between calls. The SDK's
 * own retries are off: `chat.ts` retries with a cap the SDK does not have.
 */
export function clientFor(target: ResolvedModel): OpenAI {
  const cacheKey = `${target.baseUrl}\u0000${target.apiKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const key = { provider: target.provider, apiKey: target.apiKey };
    client = new OpenAI({
      baseURL: target.baseUrl,
      apiKey: target.apiKey,
      maxRetries: 0,
      timeout: config.llm.timeoutMs,
      // Every answer, a 429 included, shows the key's limits to the shared limiter.
      fetch: async (input, init) => {
        const response = await nodeHttpFetch(input, init);
        providerLimiter.observe(key, response.status, response.headers);
        return response;
      },
    });
    clients.set(cacheKey, client);
  }
  return client;
}
