/** Model ids listed by `GET /v1/models`; chat requests accept any model name regardless. */
const MODEL_IDS = [
  "gpt-4.1",
  "gpt-4.1-mini",
  "gpt-4.1-nano",
  "gpt-4o",
  "gpt-4o-mini",
  "gpt-5",
  "gpt-5-mini",
  "o4-mini",
  "claude-sonnet-4-20250514",
  "claude-opus-4-20250514",
  "claude-3-5-haiku-20241022",
];

// Fixed so the listing is byte-for-byte deterministic.
const CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

/** A `model` object as OpenAI returns it. */
export function modelObject(id: string) {
  return { id, object: "model", created: CREATED, owned_by: "apiary-simulator" };
}

/** The `GET /v1/models` list body. */
export function modelList() {
  return { object: "list", data: MODEL_IDS.map(modelObject) };
}

/** Whether `id` is one of the listed models. */
export function isListedModel(id: string): boolean {
  return MODEL_IDS.includes(id);
}
