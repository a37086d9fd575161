import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { DataSource } from "typeorm";
import { config } from "../shared/config";
import { createInvite } from "../shared/auth/invites";
import { hashPassword, passwordProblem } from "../shared/auth/passwords";
import { deleteSessionsOf } from "../shared/db/account-session-store";
import { EmailTakenError, findAccountByEmail, insertAccount, setPasswordHash } from "../shared/db/account-store";
import { closeDataSource, getDataSource } from "../shared/db/data-source";
import { USER_ROLES, type UserRole } from "../shared/db/entities/user.entity";
import { setUserRole } from "../shared/db/user-store";

const USAGE = `Usage:
  npm run accounts -- create-admin --email <email> [--password-stdin]
  npm run accounts -- reset-password --email <email> [--password-stdin]
  npm run accounts -- invite
  npm run accounts -- set-role --email <email> user|moderator|admin

Without --password-stdin a password is generated and printed once.`;

/** Reads the password: the first line of standard input, or a generated one (shown once). */
async function choosePassword(fromStdin: boolean): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(18).toString("base64url"), generated: true };
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return { password: Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0], generated: false };
}

/** Says where the password is, without ever writing one that was given. */
function reportPassword(chosen: { password: string; generated: boolean }): void {
  if (chosen.generated) console.log(`Its password, shown only now:\n${chosen.password}`);
}

async function createAdmin(ds: DataSource, email: string, fromStdin: boolean): Promise<number> {
  const chosen = await choosePassword(fromStdin);
  const problem = passwordProblem(chosen.password);
  if (problem) return fail(problem);
  try {
    const id = await insertAccount(ds, { email, passwordHash: await hashPassword(chosen.password), role: "admin" });
    console.log(`Created the admin account ${email} (${id}).`);
  } catch (err) {
    if (err instanceof EmailTakenError) return fail(`An account with the email ${email} exists already.`);
    throw err;
  }
  reportPassword(chosen);
  return 0;
}

async function resetPassword(ds: DataSource, email: string, fromStdin: boolean): Promise<number> {
  const account = await findAccountByEmail(ds, email);
  if (!account) return fail(`No account with the email ${email}.`);
  const chosen = await choosePassword(fromStdin);
  const problem = passwordProblem(chosen.password);
  if (problem) return fail(problem);
  await setPasswordHash(ds, account.id, await hashPassword(chosen.password));
  const ended = await deleteSessionsOf(ds, account.id);
  console.log(`Set a new password for ${account.email}; ${ended} session(s) signed out.`);
  reportPassword(chosen);
  return 0;
}

async function setRole(ds: DataSource, email: string, role: string | undefined): Promise<number> {
  if (!USER_ROLES.includes(role as UserRole)) return usage();
  const account = await findAccountByEmail(ds, email);
  if (!account || !(await setUserRole(ds, account.id, role as UserRole)))
    return fail(`No account with the email ${email}.`);
  console.log(`${account.email} now has the role '${role}'.`);
  return 0;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

function usage(): number {
  console.error(USAGE);
  return 2;
}

/**
 * The operator's account commands: the first admin, password resets (ending the account's
 * sessions), invite links and roles. Passwords are read from standard input or generated and
 * printed once; none is ever logged or passed as an argument (arguments show in `ps`).
 */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, "password-stdin": { type: "boolean" } },
  });
  const [command, ...rest] = positionals;
  const email = values.email?.trim();
  const fromStdin = values["password-stdin"] ?? false;
  const ds = await getDataSource();
  try {
    switch (command) {
      case "create-admin":
        return email ? await createAdmin(ds, email, fromStdin) : usage();
      case "reset-password":
        return email ? await resetPassword(ds, email, fromStdin) : usage();
      case "set-role":
        return email ? await setRole(ds, email, rest[0]) : usage();
      case "invite": {
        const path = await createInvite(ds, null, config.platform.accounts.inviteTtlHours);
        console.log(`A one-use invite link, valid ${config.platform.accounts.inviteTtlHours} hours:`);
        console.log(`${config.http.platformUrl}${path}`);
        return 0;
      }
    }
    return usage();
  } finally {
    await closeDataSource();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`accounts: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
