import Router from "@koa/router";
import { readLocalObject } from "../../../../shared/storage";

/**
 * `GET /uploads/<key>`: images kept in the local storage directory. Only content-hash keys are
 * looked up (no paths), the type comes from the key the storage gave it, and browsers are told
 * not to guess another one.
 */
export function uploadsRouter(dir: string): Router {
  const router = new Router();
  router.get("/uploads/:key", async (ctx) => {
    const found = await readLocalObject(dir, ctx.params.key);
    if (!found) return; // the platform's 404 body
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.type = found.contentType;
    ctx.body = found.data;
  });
  return router;
}
