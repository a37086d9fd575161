import ipaddr from "ipaddr.js";
import { parseAddress } from "./address-ranges";

/**
 * One entry of `EGRESS_ALLOW`. A host entry matches the host as a URL names it (any port, or the
 * one given), whatever it resolves to; a CIDR entry matches the address actually connected to.
 */
export type EgressAllowEntry =
  { kind: "host"; host: string; port: number | null } | { kind: "cidr"; network: string; bits: number };

/**
 * A URL host as the allow list compares it: lower case, without IPv6 brackets or a trailing dot.
 * Callers pass `URL.hostname`, which has already turned every IPv4 spelling (`127.1`,
 * `2130706433`, `0x7f.0.0.1`) into dotted decimal.
 */
export function normaliseHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

function parseCidrEntry(entry: string): EgressAllowEntry {
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = ipaddr.parseCIDR(entry);
  } catch {
    throw new Error(`'${entry}' is not a valid CIDR range`);
  }
  return { kind: "cidr", network: parsed[0].toString(), bits: parsed[1] };
}

function parseHostEntry(entry: string): EgressAllowEntry {
  // A bare IPv6 address has colons but no port; `[v6]:port` and `host:port` go through the URL parser.
  const spelled = parseAddress(entry)?.kind() === "ipv6" ? `[${entry}]` : entry;
  let url: URL;
  try {
    url = new URL(`http://${spelled}`);
  } catch {
    throw new Error(`'${entry}' is not a host, host:port or CIDR range`);
  }
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash || !url.hostname) {
    throw new Error(`'${entry}' is not a host, host:port or CIDR range`);
  }
  const port = /:\d+$/.test(spelled) ? Number(spelled.slice(spelled.lastIndexOf(":") + 1)) : null;
  if (port !== null && (port < 1 || port > 65535)) throw new Error(`'${entry}' has a port outside 1–65535`);
  return { kind: "host", host: normaliseHost(url.hostname), port };
}

/** Parses `EGRESS_ALLOW` (comma-separated `host`, `host:port` or CIDR entries); throws naming the first bad entry. */
export function parseEgressAllow(text: string): EgressAllowEntry[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => (entry.includes("/") ? parseCidrEntry(entry) : parseHostEntry(entry)));
}

/** Whether a host entry allows connecting to `host` (already normalised) on `port`. */
export function allowsHost(entries: readonly EgressAllowEntry[], host: string, port: number): boolean {
  return entries.some((e) => e.kind === "host" && e.host === host && (e.port === null || e.port === port));
}

/** Whether a CIDR entry allows connecting to `address`. */
export function allowsAddress(entries: readonly EgressAllowEntry[], address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return entries.some((e) => {
    if (e.kind !== "cidr") return false;
    const network = ipaddr.parse(e.network);
    return network.kind() === parsed.kind() && (parsed as ipaddr.IPv4).match(network as ipaddr.IPv4, e.bits);
  });
}
