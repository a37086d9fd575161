import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import type { OidcSettings } from "../../shared/config/accounts";

/** How long one call to the provider (discovery, token endpoint) may take before the sign-in fails with 502. */
const PROVIDER_TIMEOUT_MS = 10_000;
/** How long a discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;

/** Why a sign-in through the provider failed; the page shows `message` (it never holds a secret). */
export class OidcSignInError extends Error {
  constructor(
    /** 400: the provider's answer to this browser was unusable; 401: the ID token is not to be trusted; 502: the provider is unreachable or broken. */
    readonly status: 400 | 401 | 502,
    message: string,
  ) {
    super(message);
    this.name = "OidcSignInError";
  }
}

/** What Apiary uses of the provider's discovery document. */
export interface OidcProvider {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Whether the token endpoint takes the client secret in the form only (not HTTP Basic). */
  secretInForm: boolean;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** Who the provider says signed in: the claims of a verified ID token that Apiary reads. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

const discovered = new Map<string, { provider: Promise<OidcProvider>; until: number }>();

async function callProvider(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw new OidcSignInError(502, `The sign-in provider could not be reached (${what}). Try again in a moment.`);
  }
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}

async function discover(settings: OidcSettings): Promise<OidcProvider> {
  const url = `${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await callProvider(url, { headers: { accept: "application/json" } }, "its discovery document");
  const broken = (why: string) => new OidcSignInError(502, `The sign-in provider's discovery document ${why}.`);
  if (!res.ok) throw broken(`answered ${res.status}`);
  const doc = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!doc || typeof doc !== "object") throw broken("is not JSON");
  // A document naming another issuer would let that issuer's tokens in (OpenID Connect Discovery §4.3).
  if (doc.issuer !== settings.issuer) throw broken("names another issuer than OIDC_ISSUER");
  const authorizationEndpoint = httpUrl(doc.authorization_endpoint);
  const tokenEndpoint = httpUrl(doc.token_endpoint);
  const jwksUri = httpUrl(doc.jwks_uri);
  if (!authorizationEndpoint || !tokenEndpoint || !jwksUri) throw broken("lacks an endpoint");
  const methods = Array.isArray(doc.token_endpoint_auth_methods_supported)
    ? doc.token_endpoint_auth_methods_supported
    : ["client_secret_basic"];
  return {
    authorizationEndpoint,
    tokenEndpoint,
    secretInForm: !methods.includes("client_secret_basic") && methods.includes("client_secret_post"),
    keys: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: PROVIDER_TIMEOUT_MS }),
  };
}

/**
 * The provider's endpoints and signing keys, from `{issuer}/.well-known/openid-configuration`:
 * fetched once an hour per issuer, and again at the next sign-in after a failure.
 */
export function oidcProvider(settings: OidcSettings): Promise<OidcProvider> {
  const cached = discovered.get(settings.issuer);
  if (cached && cached.until > Date.now()) return cached.provider;
  const provider = discover(settings);
  discovered.set(settings.issuer, { provider, until: Date.now() + DISCOVERY_TTL_MS });
  provider.catch(() => discovered.delete(settings.issuer));
  return provider;
}

/** The address the browser is sent to for signing in, with PKCE (S256), `state` and `nonce`. */
export function authorizationUrl(
  provider: OidcProvider,
  settings: OidcSettings,
  request: { redirectUri: string; state: string; nonce: string; codeChallenge: string },
): string {
  const url = new URL(provider.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("scope", settings.scopes);
  url.searchParams.set("state", request.state);
  url.searchParams.set("nonce", request.nonce);
  url.searchParams.set("code_challenge", request.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.href;
}

/** Trades the authorization code for the ID token at the token endpoint (the client authenticates itself). */
export async function exchangeCode(
  provider: OidcProvider,
  settings: OidcSettings,
  grant: { code: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    code_verifier: grant.codeVerifier,
  });
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
  };
  if (settings.clientSecret && !provider.secretInForm) {
    // RFC 6749 §2.3.1: both halves form-encoded before they are joined for Basic.
    const basic = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
  } else {
    form.set("client_id", settings.clientId);
    if (settings.clientSecret) form.set("client_secret", settings.clientSecret);
  }
  const res = await callProvider(provider.tokenEndpoint, { method: "POST", headers, body: form }, "its token endpoint");
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (body?.error === "invalid_client")
    throw new OidcSignInError(
      502,
      "The sign-in provider refused Apiary's client credentials: the operator should check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.",
    );
  if (res.status >= 400 && res.status < 500 && typeof body?.error === "string")
    throw new OidcSignInError(
      400,
      `The sign-in provider refused the sign-in code (${body.error.slice(0, 100)}). Start the sign-in again.`,
    );
  if (!res.ok || typeof body?.id_token !== "string")
    throw new OidcSignInError(502, "The sign-in provider's token endpoint did not answer with an ID token.");
  return body.id_token;
}

/**
 * Whether verifying failed for want of the provider's keys rather than for the token: the JWKS
 * request timed out, failed, or was not a key set (jose's generic error); every fault of the
 * token itself is one of jose's specific errors.
 */
function keysUnavailable(err: unknown): boolean {
  if (err instanceof joseErrors.JWKSTimeout) return true;
  if (err instanceof joseErrors.JOSEError) return err.code === joseErrors.JOSEError.code;
  return true;
}

/**
 * The identity in an ID token, once its signature (a key of the provider's JWKS), issuer, audience
 * (our client id), expiry and nonce (this browser's sign-in) check out; else a 401 error.
 */
export async function verifyIdToken(
  provider: OidcProvider,
  settings: OidcSettings,
  idToken: string,
  nonce: string,
): Promise<OidcIdentity> {
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(idToken, provider.keys, {
      issuer: settings.issuer,
      audience: settings.clientId,
      requiredClaims: ["sub", "exp", "iat"],
      clockTolerance: 60,
    }));
  } catch (err) {
    if (keysUnavailable(err))
      throw new OidcSignInError(502, "The sign-in provider's signing keys (its jwks_uri) could not be fetched.");
    throw new OidcSignInError(401, "The sign-in provider's ID token could not be verified, so you are not signed in.");
  }
  if (claims.nonce !== nonce)
    throw new OidcSignInError(
      401,
      "The ID token was not made for this sign-in (its nonce differs), so you are not signed in.",
    );
  return {
    issuer: settings.issuer,
    subject: claims.sub!,
    email: typeof claims.email === "string" && claims.email.includes("@") ? claims.email : null,
    emailVerified: claims.email_verified === true,
  };
}
