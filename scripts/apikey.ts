import { parseArgs } from "node:util";
import type { DataSource } from "typeorm";
import { createApiKey } from "../shared/auth/api-keys";
import { listApiKeys } from "../shared/db/api-key-store";
import { revokeAndAnnounce } from "../shared/auth/key-revocation";
import { ensureUser, findUserByHandle, setUserRole } from "../shared/db/user-store";
import { USER_ROLES, type UserRole } from "../shared/db/entities/user.entity";
import { closeDataSource, getDataSource } from "../shared/db/data-source";
import { createRedis } from "../shared/queues/redis";

/** Revokes a key and drops it from running API processes' caches at once. */
async function revoke(ds: DataSource, id: string): Promise<boolean> {
  const redis = createRedis("blocking");
  try {
    return await revokeAndAnnounce(ds, redis, id);
  } finally {
    redis.disconnect();
  }
}

const USAGE = `Usage:
  npm run apikey -- create --user <handle> [--name <name>] [--tier free|premium]
  npm run apikey -- list [--user <handle>]
  npm run apikey -- revoke <key id>
  npm run apikey -- role --user <handle> moderator|user`;

/**
 * Manages API keys, and users' roles (`role` grants or takes back moderation of marketplace
 * prompts). `create` prints the new key alone on the last line of its output.
 */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { user: { type: "string" }, name: { type: "string" }, tier: { type: "string" } },
  });
  const [command, ...rest] = positionals;
  const ds = await getDataSource();
  try {
    switch (command) {
      case "create": {
        if (!values.user) break;
        const tier = values.tier ?? "free";
        if (!["free", "premium"].includes(tier)) break;
        const user = await ensureUser(ds, values.user);
        const { key, record } = await createApiKey(ds, user.id, values.name ?? "default", tier);
        console.log(
          `Created key ${record.id} (sk-…${record.last4}, tier ${tier}) for user '${user.handle}'. It is shown only once:`,
        );
        console.log(key);
        return 0;
      }
      case "list": {
        const user = values.user ? await ensureUser(ds, values.user) : undefined;
        const keys = await listApiKeys(ds, user?.id);
        for (const k of keys) {
          const state = k.revoked_at ? `revoked ${new Date(k.revoked_at).toISOString()}` : "active";
          console.log(`${k.id}  ${k.handle}  ${k.name}  sk-…${k.last4}  ${k.tier}  ${state}`);
        }
        if (keys.length === 0) console.log("No API keys.");
        return 0;
      }
      case "revoke": {
        const id = rest[0];
        if (!id || !/^[0-9a-f-]{36}$/i.test(id)) break;
        const revoked = await revoke(ds, id);
        console.log(revoked ? `Revoked key ${id}.` : `No active key with id ${id}.`);
        return revoked ? 0 : 1;
      }
      case "role": {
        const role = rest[0] as UserRole;
        if (!values.user || !USER_ROLES.includes(role)) break;
        // Never creates a user: a mistyped handle must not become a moderator nobody meant.
        const user = await findUserByHandle(ds, values.user);
        if (!user || !(await setUserRole(ds, user.id, role))) {
          console.error(`No user with the handle '${values.user}'.`);
          return 1;
        }
        console.log(`User '${user.handle}' (${user.id}) now has the role '${role}'.`);
        return 0;
      }
    }
    console.error(USAGE);
    return 2;
  } finally {
    await closeDataSource();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`apikey: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
