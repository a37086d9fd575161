import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Why each non-public range of ipaddr.js may not be reached, as the end of "it is …". */
const RANGE_REASONS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (cloud metadata services live there)",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved address",
  uniqueLocal: "a unique-local address",
  ipv4Mapped: "an IPv6 address embedding an IPv4 address",
  rfc6145: "an IPv6 address embedding an IPv4 address",
  rfc6052: "an IPv6 address embedding an IPv4 address",
  "6to4": "an IPv6 address embedding an IPv4 address",
  teredo: "an IPv6 address embedding an IPv4 address",
};

/**
 * Special-purpose ranges (IANA registries) that ipaddr.js 1.x files under `unicast`. IPv6 outside
 * global unicast (2000::/3) is refused as a whole, which takes in IPv4-compatible (::/96),
 * site-local (fec0::/10), discard (100::/64) and local-use NAT64 (64:ff9b:1::/48) addresses.
 */
const EXTRA_RESERVED: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  "198.18.0.0/15", // benchmarking
  "2001::/23", // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  "3fff::/20", // documentation
].map((cidr) => ipaddr.parseCIDR(cidr));

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, [network, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  return address.kind() === network.kind() && (address as ipaddr.IPv4).match(network as ipaddr.IPv4, bits);
}

/** Parses an IP address (no brackets); null when `text` is not one. */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (isIP(text) === 0) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * Why `address` is not a public unicast address the service may connect to for a client, as the
 * end of "it is …" (e.g. "a loopback address"), or null when it is public. Anything that does not
 * parse as an address is refused, so an unexpected spelling can never slip through.
 */
export function nonPublicReason(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return "not an IP address that can be checked";
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).zoneId)
    return "a link-local address (cloud metadata services live there)";
  const range = parsed.range();
  if (range !== "unicast") return RANGE_REASONS[range] ?? "a reserved address";
  if (parsed.kind() === "ipv6" && !inRange(parsed, GLOBAL_UNICAST_V6)) return RANGE_REASONS.reserved;
  if (EXTRA_RESERVED.some((cidr) => inRange(parsed, cidr))) return RANGE_REASONS.reserved;
  return null;
}
