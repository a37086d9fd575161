import type { PromptRow, UseCase } from "../../shared/db/entities/prompt.entity";

/** The edit form's fields as text, as the form shows them and posts them back. */
export interface ListingForm {
  name: string;
  description: string;
  text: string;
  tags: string;
  category: string;
  free: boolean;
  priceUsd: string;
  useCases: string;
}

/** Use cases as the form's textarea holds them: one a line, `title: description`. */
function useCasesText(useCases: UseCase[]): string {
  return useCases.map((u) => (u.description ? `${u.title}: ${u.description}` : u.title)).join("\n");
}

function useCasesOf(text: string): UseCase[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(":");
      return colon < 0
        ? { title: line, description: "" }
        : { title: line.slice(0, colon).trim(), description: line.slice(colon + 1).trim() };
    });
}

/** A stored listing as its edit form shows it. */
export function formOf(row: PromptRow): ListingForm {
  return {
    name: row.name,
    description: row.description ?? "",
    text: row.prompt,
    tags: row.tags ?? "",
    category: row.category ?? "",
    free: row.is_free,
    priceUsd: row.price_usd === null ? "" : String(row.price_usd),
    useCases: useCasesText(row.use_cases ?? []),
  };
}

/** The form as posted (`field` reads one posted field as text). */
export function postedForm(field: (name: string) => string): ListingForm {
  return {
    name: field("name"),
    description: field("description"),
    text: field("text"),
    tags: field("tags"),
    category: field("category"),
    free: field("free") === "on",
    priceUsd: field("price_usd").trim(),
    useCases: field("use_cases").replace(/\r\n/g, "\n"),
  };
}

/**
 * The edit body the posted form stands for, in the JSON edit route's field names (`prompt`, or
 * `agent` for an agent): only the fields the person changed, so an untouched field is never
 * rewritten (and never sends the listing back to review by itself). The route's own schema checks it next.
 */
export function editBodyOf(row: PromptRow, posted: ListingForm): Record<string, unknown> {
  const stored = formOf(row);
  const body: Record<string, unknown> = { id: row.id };
  const changed = (key: keyof ListingForm) => posted[key] !== stored[key];
  if (changed("name")) body.name = posted.name;
  if (changed("description")) body.description = posted.description;
  if (changed("text")) body[row.kind === "agent" ? "agent" : "prompt"] = posted.text;
  if (changed("tags")) body.tags = posted.tags;
  if (changed("category")) body.category = posted.category;
  if (changed("free")) body.is_free = posted.free;
  if (changed("priceUsd") || (changed("free") && !posted.free))
    body.price_usd = posted.priceUsd === "" ? null : posted.priceUsd;
  if (changed("useCases")) body.useCases = useCasesOf(posted.useCases);
  return body;
}

/** An empty form, for a new prompt (free unless the person says otherwise). */
export const EMPTY_FORM: ListingForm = {
  name: "",
  description: "",
  text: "",
  tags: "",
  category: "",
  free: true,
  priceUsd: "",
  useCases: "",
};

/** The `POST /api/add-prompt` body the posted new-prompt form stands for; the route's schema checks it next. */
export function newPromptBodyOf(posted: ListingForm): Record<string, unknown> {
  return {
    name: posted.name,
    prompt: posted.text,
    description: posted.description,
    useCases: useCasesOf(posted.useCases),
    tags: posted.tags,
    ...(posted.category ? { category: posted.category } : {}),
    is_free: posted.free,
    ...(posted.free ? {} : { price_usd: posted.priceUsd === "" ? null : posted.priceUsd }),
  };
}
