import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { closeNow, listenLocally } from "./local-server";

/** The person the provider signs in next, as its ID token will describe them. */
export interface ProviderUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

/** Ways a test makes the provider's next ID token wrong. */
interface IdTokenTampering {
  nonce?: string;
  aud?: string;
  /** Signed with a key that is not in the provider's JWKS. */
  foreignKey?: boolean;
}

/** A local OpenID Connect provider for one test suite. */
export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the authorization endpoint signs in (it asks nobody: the test chose). */
  user: ProviderUser;
  /** Applied to every ID token until reset to `{}`. */
  tamper: IdTokenTampering;
  /** When set, the JWKS answers 503 (the provider's keys cannot be had). */
  jwksDown: boolean;
  /** Token requests refused, with why (a wrong secret or PKCE verifier, a used code). */
  refusals: string[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string;
  user: ProviderUser;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** The client id and secret of `client_secret_basic` (each form-encoded, RFC 6749 §2.3.1). */
function basicCredentials(req: IncomingMessage): { id: string; secret: string } | null {
  const match = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
  if (!match) return null;
  const [id, secret] = Buffer.from(match[1], "base64").toString("utf8").split(":");
  return { id: decodeURIComponent(id ?? ""), secret: decodeURIComponent(secret ?? "") };
}

/**
 * An OpenID Connect provider on a loopback port (node:http): discovery, an authorization endpoint
 * that sends the browser straight back with a code for the user the test chose, a token endpoint
 * that checks the client's secret (HTTP Basic), the redirect URL and the PKCE verifier and hands
 * out each code once, and a JWKS. ID tokens are RS256, signed with jose.
 */
export async function startOidcProvider(): Promise<LocalOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const foreign: CryptoKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, PendingCode>();

  const provider: LocalOidcProvider = {
    issuer: "",
    clientId: `apiary-${randomBytes(4).toString("hex")}`,
    clientSecret: `client-secret-${randomBytes(16).toString("hex")}`,
    user: { sub: "nobody" },
    tamper: {},
    jwksDown: false,
    refusals: [],
    close: async () => closeNow(server),
  };

  async function idToken(code: PendingCode): Promise<string> {
    const { nonce = code.nonce, aud = code.clientId, foreignKey = false } = provider.tamper;
    return new SignJWT({ ...code.user, nonce })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(provider.issuer)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(foreignKey ? foreign : privateKey);
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    const refuse = (why: string, error = "invalid_grant") => {
      provider.refusals.push(why);
      send(res, 400, { error });
    };
    const client = basicCredentials(req);
    if (client?.id !== provider.clientId || client.secret !== provider.clientSecret)
      return refuse("client authentication", "invalid_client");
    const code = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    if (!code) return refuse("unknown or used code");
    if (form.get("redirect_uri") !== code.redirectUri) return refuse("redirect_uri");
    const verifier = form.get("code_verifier") ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== code.challenge) return refuse("PKCE verifier");
    send(res, 200, { access_token: "opaque", token_type: "Bearer", expires_in: 300, id_token: await idToken(code) });
  }

  function authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    const ok =
      q.get("client_id") === provider.clientId &&
      q.get("response_type") === "code" &&
      q.get("code_challenge_method") === "S256" &&
      (q.get("scope") ?? "").split(" ").includes("openid") &&
      q.get("code_challenge") &&
      q.get("nonce");
    if (!ok) return send(res, 400, { error: "invalid_request" });
    const code = randomBytes(16).toString("base64url");
    codes.set(code, {
      clientId: provider.clientId,
      redirectUri,
      challenge: q.get("code_challenge")!,
      nonce: q.get("nonce")!,
      user: { ...provider.user },
    });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.get("state") ?? "");
    res.writeHead(302, { location: back.href });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", provider.issuer);
    if (url.pathname === "/.well-known/openid-configuration")
      return send(res, 200, {
        issuer: provider.issuer,
        authorization_endpoint: `${provider.issuer}/authorize`,
        token_endpoint: `${provider.issuer}/token`,
        jwks_uri: `${provider.issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
        code_challenge_methods_supported: ["S256"],
      });
    if (url.pathname === "/jwks") return provider.jwksDown ? send(res, 503, {}) : send(res, 200, { keys: [jwk] });
    if (url.pathname === "/authorize" && req.method === "GET") return authorize(url, res);
    if (url.pathname === "/token" && req.method === "POST")
      return void token(req, res).catch(() => send(res, 500, { error: "server_error" }));
    send(res, 404, { error: "not_found" });
  });
  provider.issuer = await listenLocally(server);
  return provider;
}
