import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { nonPublicReason } from "./address-ranges";
import { boundedResolve, type ResolveAll } from "./bounded-resolve";
import { allowsAddress, allowsHost, normaliseHost, type EgressAllowEntry } from "./egress-allow";

export type { ResolveAll } from "./bounded-resolve";

/**
 * A client-given URL the service will not connect to. The message says why without naming the
 * address a name resolved to (that would map the operator's internal DNS for the client) and names
 * the variable an operator sets to allow it anyway.
 */
export class EgressRefusedError extends Error {
  /** The stable code a refused run or request carries. */
  readonly code = "EGRESS_REFUSED";

  constructor(
    /** The URL's host as the client gave it (normalised). */
    readonly host: string,
    /** Why, as the end of a sentence about the host ("is a loopback address"). */
    readonly reason: string,
  ) {
    super(
      `${host} ${reason}; the service only connects to public http(s) addresses unless the operator allows the host with EGRESS_ALLOW`,
    );
    this.name = "EgressRefusedError";
  }
}

export interface EgressPolicyOptions {
  /** The parsed `EGRESS_ALLOW`. */
  allow: readonly EgressAllowEntry[];
  /** Name resolution; the system resolver unless a test injects its own. */
  resolve?: ResolveAll;
  /** How long a request-time resolution may take before the check leaves it to connect time. */
  resolveTimeoutMs?: number;
}

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

  constructor(options: EgressPolicyOptions) {
    this.allow = options.allow;
    this.resolve = options.resolve ?? systemResolve;
    this.resolveAhead = boundedResolve(this.resolve, {
      concurrency: MAX_CONCURRENT_LOOKUPS,
      timeoutMs: options.resolveTimeoutMs ?? 5_000,
    });
  }

  /**
   * Throws {@link EgressRefusedError} when the URL is refused as far as can be told now: its
   * scheme, a literal address, or a name resolving to a refused address. A name that does not
   * resolve (or not in time) passes: connect time decides, where every address is checked.
   */
  async check(url: string | URL): Promise<void> {
    const target = this.target(url);
    if (target.kind !== "name") return;
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolveAhead(target.host);
    } catch {
      return;
    }
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
            return callback(Object.assign(new Error(`no address of ${hostname} fits`), { code: "ENOTFOUND" }), "", 0);
          if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
          callback(null, addresses[0].address, addresses[0].family);
        },
        (error: NodeJS.ErrnoException) => callback(error, "", 0),
      );
    };
  }

  /** Refuses what the URL alone shows; says whether connecting still needs a checked lookup. */
  private target(input: string | URL): Target {
    let url: URL;
    try {
      url = typeof input === "string" ? new URL(input) : input;
    } catch {
      throw new EgressRefusedError(String(input).split(/[?#]/)[0], "is not a valid URL");
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
