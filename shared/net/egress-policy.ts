import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { nonPublicReason } from "./address-ranges";
import { boundedResolve, type ResolveAll } from "./bounded-resolve";
import { allowsAddress, allowsHost, normaliseHost, type EgressAllowEntry } from "./egress-allow";

export type { ResolveAll } from "./bounded-resolve";

/**
 * A client-given URL the service will not connect to. The message is the same whatever the reason
 * (a loopback, private or link-local address, a name that resolves to one, does not resolve or not
 * in time), apart from the host the client gave: telling them apart would let a client map the
 * operator's network and internal DNS. The reason is kept for the operator's logs only.
 */
export class EgressRefusedError extends Error {
  /** The stable code a refused run or request carries. */
  readonly code = "EGRESS_REFUSED";

  constructor(
    /** The URL's host as the client gave it (normalised). */
    readonly host: string,
    /** Why, for the operator's logs and never for an answer ("resolves to a loopback address"). */
    readonly reason: string,
  ) {
    super(
      `${host} is refused by the egress policy: the service only connects to public http(s) addresses unless the operator allows the host with EGRESS_ALLOW`,
    );
    this.name = "EgressRefusedError";
  }
}

/** Why a lookup failed, for the operator's log line (the resolver's error code, or its message). */
function lookupFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return `does not resolve (${code})`;
  return `does not resolve (${error instanceof Error ? error.message : String(error)})`;
}

export interface EgressPolicyOptions {
  /** The parsed `EGRESS_ALLOW`. */
  allow: readonly EgressAllowEntry[];
  /** Name resolution; the system resolver unless a test injects its own. */
  resolve?: ResolveAll;
  /** How long a request-time resolution may take before the check refuses the URL. */
  resolveTimeoutMs?: number;
}

/** How long a request-time resolution may take unless the policy is told otherwise. */
const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

/** Request-time lookups at once, leaving the rest of libuv's 4 threads to everything else (see `boundedResolve`). */
const MAX_CONCURRENT_LOOKUPS = 2;

/** What connecting to a URL needs once the URL itself is known to be allowed. */
type Target = { kind: "unchecked" } | { kind: "name"; host: string };

const systemResolve: ResolveAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Names that always mean this machine (RFC 6761), refused without asking a resolver. */
function isLoopbackName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * The one egress policy for URLs a client gives and the service connects to: only public unicast
 * addresses, unless `EGRESS_ALLOW` names the host (any address) or a CIDR range holding the
 * address. {@link check} looks at a URL when a request arrives; {@link connectLookup} checks the
 * addresses actually connected to, on every connection and redirect hop, so a name that changes
 * its answer after the request-time check (DNS rebinding) is still refused.
 */
export class EgressPolicy {
  private readonly allow: readonly EgressAllowEntry[];
  private readonly resolve: ResolveAll;
  /** Request-time resolution: bounded in concurrency and time; connect time uses `resolve` itself. */
  private readonly resolveAhead: ResolveAll;
  /** Request-time lookups under way, by host: checks of one host at once share its lookup and its slot. */
  private readonly lookupsUnderWay = new Map<string, Promise<LookupAddress[]>>();

  constructor(options: EgressPolicyOptions) {
    this.allow = options.allow;
    this.resolve = options.resolve ?? systemResolve;
    this.resolveAhead = boundedResolve(this.resolve, {
      concurrency: MAX_CONCURRENT_LOOKUPS,
      timeoutMs: options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS,
    });
  }

  /**
   * The one call for a client-given URL that anything (this service, a model server, a gateway)
   * will fetch or connect to: throws {@link EgressRefusedError} unless the URL is http(s) and its
   * host is one `EGRESS_ALLOW` allows (not resolved here) or resolves, within the time bound, to
   * public addresses only. A name that does not resolve, or not in time, is refused like a private
   * address: whoever fetches it later may resolve it inside the operator's network.
   */
  async check(url: string | URL): Promise<void> {
    const target = this.target(url);
    if (target.kind !== "name") return;
    let addresses: LookupAddress[];
    try {
      addresses = await this.lookupAhead(target.host);
    } catch (error) {
      throw new EgressRefusedError(target.host, lookupFailure(error));
    }
    if (addresses.length === 0) throw new EgressRefusedError(target.host, "resolves to no address");
    this.assertAddresses(target.host, addresses);
  }

  /**
   * The `lookup` to open a connection to `url` with, which refuses every resolved address the
   * policy does not allow; undefined when no lookup needs checking (an allowed host, or a literal
   * address, which is checked here and which Node connects to without a lookup). Throws
   * {@link EgressRefusedError} when the URL is refused outright.
   */
  connectLookup(url: URL): LookupFunction | undefined {
    const target = this.target(url);
    if (target.kind !== "name") return undefined;
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (resolved) => {
          try {
            this.assertAddresses(target.host, resolved);
          } catch (error) {
            return callback(error as NodeJS.ErrnoException, "", 0);
          }
          const addresses = options.family ? resolved.filter((a) => a.family === options.family) : resolved;
          if (addresses.length === 0)
            return callback(
              new EgressRefusedError(target.host, "resolves to no address of the family asked for"),
              "",
              0,
            );
          if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
          callback(null, addresses[0].address, addresses[0].family);
        },
        // Refused as at request time: whether a name resolves must not show through a run's error.
        (error: unknown) => callback(new EgressRefusedError(target.host, lookupFailure(error)), "", 0),
      );
    };
  }

  /**
   * Whether the operator's `EGRESS_ALLOW` names `url`'s host (or its literal address): such a host
   * is trusted as a private peer, so a plain-http URL to it may be accepted where https is asked.
   */
  namesHost(url: URL): boolean {
    const host = normaliseHost(url.hostname);
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return allowsHost(this.allow, host, port) || (isIP(host) !== 0 && allowsAddress(this.allow, host));
  }

  private lookupAhead(host: string): Promise<LookupAddress[]> {
    let lookup = this.lookupsUnderWay.get(host);
    if (!lookup) {
      lookup = this.resolveAhead(host).finally(() => this.lookupsUnderWay.delete(host));
      this.lookupsUnderWay.set(host, lookup);
    }
    return lookup;
  }

  /** Refuses what the URL alone shows; says whether connecting still needs a checked lookup. */
  private target(input: string | URL): Target {
    let url: URL;
    try {
      url = typeof input === "string" ? new URL(input) : input;
    } catch {
      // Not echoed: what does not parse may hold anything, credentials included.
      throw new EgressRefusedError("the URL", "is not a valid URL");
    }
    const host = normaliseHost(url.hostname);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new EgressRefusedError(host || url.protocol, "is not an http(s) URL");
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    if (allowsHost(this.allow, host, port)) return { kind: "unchecked" };
    if (isIP(host)) {
      const reason = allowsAddress(this.allow, host) ? null : nonPublicReason(host);
      if (reason) throw new EgressRefusedError(host, `is ${reason}`);
      return { kind: "unchecked" };
    }
    if (isLoopbackName(host)) throw new EgressRefusedError(host, "names this machine (a loopback address)");
    return { kind: "name", host };
  }

  private assertAddresses(host: string, addresses: readonly LookupAddress[]): void {
    for (const { address } of addresses) {
      const reason = allowsAddress(this.allow, address) ? null : nonPublicReason(address);
      if (reason) throw new EgressRefusedError(host, `resolves to ${reason}`);
    }
  }
}
