import type { DataSource } from "typeorm";
import { EmailTakenError, findAccountByEmail, forgetPassword, insertAccount } from "../../shared/db/account-store";
import { deleteSessionsOf } from "../../shared/db/account-session-store";
import { linkedAccount, linkIdentity } from "../../shared/db/account-identity-store";
import { transaction } from "../../shared/db/sql";
import { isUniqueViolation } from "../../shared/db/unique-violation";
import type { OidcIdentity } from "./oidc-client";

/** The account a provider's identity signs in to, or why there is none (a page says `message`). */
export type IdentityAccount = { userId: string } | { refused: { status: 403 | 409; message: string } };

/** Another sign-in of the same person linked the identity first: theirs is the account. */
async function linkedByRace<T>(ds: DataSource, identity: OidcIdentity, work: () => Promise<T>): Promise<T | string> {
  try {
    return await work();
  } catch (err) {
    if (!isUniqueViolation(err, "account_identities_pkey")) throw err;
    const userId = await linkedAccount(ds, identity);
    if (!userId) throw err;
    return userId;
  }
}

/**
 * Finds or makes the account of a verified identity: the one linked to its (issuer, subject); at a
 * first sign-in, the account with the same email when the provider vouches for the email
 * (`email_verified`), linked from then on; else a new account, when `signUp` allows it and the
 * provider vouches for the email.
 *
 * Open sign-up never proves an email: anyone could have made an account with this person's address
 * and a password of their own, waiting for them. So linking ends that account's password and every
 * session of it, in the same transaction: from then on only the provider opens it (the operator's
 * `npm run accounts -- reset-password` gives it a password again).
 */
export async function accountForIdentity(
  ds: DataSource,
  identity: OidcIdentity,
  signUp: boolean,
): Promise<IdentityAccount> {
  const linked = await linkedAccount(ds, identity);
  if (linked) return { userId: linked };

  const sameEmail = identity.email ? await findAccountByEmail(ds, identity.email) : null;
  if (sameEmail && identity.emailVerified) {
    const userId = await linkedByRace(ds, identity, () =>
      transaction(ds, async (tx) => {
        await linkIdentity(tx, identity, sameEmail.id);
        await forgetPassword(tx, sameEmail.id);
        await deleteSessionsOf(tx, sameEmail.id);
        return sameEmail.id;
      }),
    );
    return { userId };
  }
  if (sameEmail)
    return {
      refused: {
        status: 409,
        message:
          "An account with your email exists, but the sign-in provider does not confirm that the email is yours, so it was not linked. Sign in with your email and password instead.",
      },
    };
  if (!signUp)
    return {
      refused: {
        status: 403,
        message:
          "You have no account here, and signing in through the provider does not make one. Ask an admin for an invite.",
      },
    };
  const email = identity.email;
  // An account takes its email as its handle, the name the CLI finds it by: only a vouched-for one.
  if (email && !identity.emailVerified)
    return {
      refused: {
        status: 403,
        message:
          "The sign-in provider does not confirm that your email address is yours, which a new account needs. Confirm it with the provider, then sign in again.",
      },
    };
  if (!email)
    return {
      refused: {
        status: 403,
        message:
          "The sign-in provider did not share your email address, which a new account needs. Ask its administrator to release the email claim.",
      },
    };
  try {
    const userId = await linkedByRace(ds, identity, () =>
      transaction(ds, async (tx) => {
        const userId = await insertAccount(tx, { email, passwordHash: null });
        await linkIdentity(tx, identity, userId);
        return userId;
      }),
    );
    return { userId };
  } catch (err) {
    if (!(err instanceof EmailTakenError)) throw err;
    // Made between the look-up and the insert: by another sign-in of this person, or by a sign-up.
    const userId = await linkedAccount(ds, identity);
    if (userId) return { userId };
    return {
      refused: {
        status: 409,
        message: "An account with your email exists. Sign in with your email and password instead.",
      },
    };
  }
}
