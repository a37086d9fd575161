/**
 * Reads `OTEL_EXPORTER_OTLP_HEADERS` as the OpenTelemetry specification writes it: comma-separated
 * `key=value` pairs, each value percent-encoded (W3C Baggage's format without its properties).
 * Throws on an entry that is not such a pair, so a typo fails at start instead of sending no
 * credentials to the collector.
 */
export function parseOtlpHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of text.split(",")) {
    if (!entry.trim()) continue;
    const at = entry.indexOf("=");
    const name = entry.slice(0, at).trim();
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new Error("must be comma-separated key=value pairs (a header name, then its percent-encoded value)");
    }
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new Error(`has a value that is not percent-encoded (header ${name})`);
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}
