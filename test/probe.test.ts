import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { harness } from "./helpers/harness";
import { publishAgentPrompts } from "../api/services/agent-publishing.service";
it("probe", async () => {
  const h = await harness(); const caller = await h.newKey();
  const prompt = `You translate menus for tourists ${randomUUID()}.`;
  const spec = (n: number) => ({ agent_name: `Menu ${n}`, system_prompt: prompt, publish_to_marketplace: true, is_free: true, use_cases: [{ title: "a", description: "b" }], tags: ["x", "y"] }) as any;
  const out = await Promise.all([1,2,3,4,5,6,7,8].map((n) => publishAgentPrompts(h.deps, caller.userId, [spec(n)])));
  console.log(new Set(out.map(o => o.promptIds[0])).size);
});
