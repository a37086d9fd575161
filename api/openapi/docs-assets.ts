import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { version as SWAGGER_UI_VERSION } from "swagger-ui-dist/package.json";
import { DOCS_INIT_SCRIPT } from "./docs-page";

/** The package holding Swagger UI's browser bundle (no `exports` map, so its package.json resolves). */
const SWAGGER_UI_DIR = dirname(require.resolve("swagger-ui-dist/package.json"));

/** The only files the docs page loads; nothing else is served from the package folder. */
const FILES: Record<string, { type: string; load: () => Promise<Buffer | string> }> = {
  "swagger-ui-bundle.js": {
    type: "application/javascript; charset=utf-8",
    load: () => readFile(join(SWAGGER_UI_DIR, "swagger-ui-bundle.js")),
  },
  "swagger-ui.css": { type: "text/css; charset=utf-8", load: () => readFile(join(SWAGGER_UI_DIR, "swagger-ui.css")) },
  "favicon-32x32.png": { type: "image/png", load: () => readFile(join(SWAGGER_UI_DIR, "favicon-32x32.png")) },
  "docs-init.js": { type: "application/javascript; charset=utf-8", load: async () => DOCS_INIT_SCRIPT },
};

export const DOCS_ASSET_NAMES = Object.keys(FILES);

const loaded = new Map<string, Promise<Buffer | string>>();

/** A docs asset by name (read once, then kept in memory), or null for any other name. */
export async function docsAsset(name: string): Promise<{ type: string; body: Buffer | string; etag: string } | null> {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return null;
  if (!loaded.has(name)) loaded.set(name, file.load());
  return { type: file.type, body: await loaded.get(name)!, etag: `"swagger-ui-${SWAGGER_UI_VERSION}-${name}"` };
}
