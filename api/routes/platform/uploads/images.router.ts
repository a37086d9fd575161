import Router from "@koa/router";
import type { ObjectStorage } from "../../../../shared/storage";
import { documentRoutes } from "../../../openapi/operation";
import { IMAGES_PATH } from "../../../pages/page-format";
import { imageOperations } from "../prompts/prompts.openapi";

/**
 * `GET /images/<key>`: a listing's image as the platform stored it (local directory or bucket),
 * served by the platform itself so a page's viewers never ask anyone else. Only content-hash keys
 * are looked up, the type comes from the key (only PNG, JPEG, WebP, GIF), browsers are told not to
 * guess another, and a key's bytes never change, so it is cached for a year.
 */
export function imagesRouter(storage: ObjectStorage): Router {
  const router = new Router();
  router.get(`${IMAGES_PATH}/:key`, async (ctx) => {
    const found = await storage.read(ctx.params.key);
    if (!found) return; // the platform's 404 body
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.type = found.contentType;
    ctx.body = found.data;
  });
  return documentRoutes(router, ...imageOperations);
}
