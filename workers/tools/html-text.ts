// The page is the client's to choose (they can host it), so every pattern here runs in linear time:
// a tag's insides are `[^<>]*` (a failed match stops at the next `<`), and an element or comment
// whose end is searched for is found with `indexOf`, not a lazy `[\s\S]*?` that rescans the rest
// of the page from every opener (a page of 40,000 `<` took 0.9 s that way, growing with its square).

/** A comment, or the start of an element whose content is never readable text. */
const DROPPED_START = /<!--|<(script|style|noscript|template|svg|iframe|object|head)\b[^<>]*>/gi;
/** Elements that start a new line of text. */
const BLOCK =
  /<\/?(p|div|section|article|main|header|footer|nav|aside|h[1-6]|li|ul|ol|tr|table|blockquote|pre|br|hr|dd|dt|figcaption)\b[^<>]*>/gi;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes the character references a page's text uses (named basics, decimal and hex). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The text with every comment and dropped element cut out (an element as a space); one left
 * open runs to the end of the page.
 */
function withoutDropped(html: string): string {
  const lower = html.toLowerCase();
  const kept: string[] = [];
  let at = 0;
  const start = new RegExp(DROPPED_START.source, "gi");
  for (let m = start.exec(html); m; m = start.exec(html)) {
    kept.push(html.slice(at, m.index), m[1] ? " " : "");
    const closer = m[1] ? `</${m[1].toLowerCase()}` : "-->";
    const end = lower.indexOf(closer, start.lastIndex);
    if (end < 0) return kept.join("");
    at = m[1] ? lower.indexOf(">", end) + 1 || html.length : end + closer.length;
    start.lastIndex = at;
  }
  kept.push(html.slice(at));
  return kept.join("");
}

/** The text of the page's first `<title>`, if it has one that closes. */
function titleOf(html: string): string | undefined {
  const open = /<title\b[^<>]*>/i.exec(html);
  if (!open) return undefined;
  const from = open.index + open[0].length;
  const end = html.toLowerCase().indexOf("</title", from);
  return end < 0 ? undefined : html.slice(from, end);
}

/**
 * A page's readable text: its title, then the body's text with scripts, styles and markup
 * removed and block elements as line breaks. Small and regular-expression based, since no HTML
 * library is installed; it only ever produces text for a model, never markup anyone renders.
 */
export function htmlToText(html: string): string {
  const title = titleOf(html);
  const text = withoutDropped(html)
    .replace(BLOCK, "\n")
    .replace(/<[^<>]*>/g, " ");
  const lines = decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const heading = title ? decodeEntities(title).replace(/\s+/g, " ").trim() : "";
  return [heading && `Title: ${heading}`, ...lines].filter(Boolean).join("\n");
}
