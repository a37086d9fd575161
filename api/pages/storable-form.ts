import type { Context } from "koa";
import { findJsonHazard } from "../../shared/json/json-hazards";

/**
 * The name of a posted form field Postgres could not store (a NUL character, or a lone UTF-16
 * surrogate), or null when every field is storable: such a field is a 400 of the form, not a
 * database error later.
 */
export function unstorableFormField(ctx: Context): string | null {
  const hazard = findJsonHazard(ctx.request.body ?? {});
  if (!hazard) return null;
  return hazard.kind === "text" ? String(hazard.path[0] ?? "form") : "form";
}

/** What a page says of an unstorable field. */
export function unstorableMessage(field: string): string {
  return `'${field}' holds a character that cannot be stored (a NUL character or a broken surrogate)`;
}
