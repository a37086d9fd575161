/** Elements whose content is never readable text. */
const DROPPED = /<(script|style|noscript|template|svg|iframe|object|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Elements that start a new line of text. */
const BLOCK =
  /<\/?(p|div|section|article|main|header|footer|nav|aside|h[1-6]|li|ul|ol|tr|table|blockquote|pre|br|hr|dd|dt|figcaption)\b[^>]*>/gi;

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
 * A page's readable text: its title, then the body's text with scripts, styles and markup
 * removed and block elements as line breaks. Small and regular-expression based, since no HTML
 * library is installed; it only ever produces text for a model, never markup anyone renders.
 */
export function htmlToText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(DROPPED, " ")
    .replace(BLOCK, "\n")
    .replace(/<[^>]*>/g, " ");
  const lines = decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const heading = title ? decodeEntities(title).replace(/\s+/g, " ").trim() : "";
  return [heading && `Title: ${heading}`, ...lines].filter(Boolean).join("\n");
}
