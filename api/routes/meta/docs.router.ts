import Router from "@koa/router";
import Joi from "joi";
import { buildOpenApiDocument, type DocumentInfo, type OpenApiDocument } from "../../openapi/document";
import { DOCS_ASSET_NAMES, docsAsset } from "../../openapi/docs-assets";
import { DOCS_CONTENT_SECURITY_POLICY, renderDocsPage } from "../../openapi/docs-page";
import { documentRoutes, type Operation } from "../../openapi/operation";

const docsOperations: Operation[] = [
  {
    method: "get",
    path: "/openapi.json",
    summary: "This API's OpenAPI 3.1 document",
    tags: ["Meta"],
    access: "public",
    responses: {
      200: {
        description: "The document you are reading",
        content: { "application/json": { schema: { type: "object" } } },
      },
    },
  },
  {
    method: "get",
    path: "/docs",
    summary: "The reference page (Swagger UI) of this document",
    tags: ["Meta"],
    access: "public",
    responses: {
      200: {
        description: "An HTML page that needs nothing outside this server",
        content: { "text/html": { schema: { type: "string" } } },
      },
    },
  },
  {
    method: "get",
    path: "/docs/assets/{file}",
    summary: "The files the reference page loads",
    tags: ["Meta"],
    access: "public",
    pathParams: Joi.object({ file: Joi.string().valid(...DOCS_ASSET_NAMES) }),
    responses: {
      200: {
        description: "The file, cacheable for a day",
        content: {
          "application/javascript": { schema: { type: "string" } },
          "text/css": { schema: { type: "string" } },
          "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
        },
      },
      404: { description: "No such file (with this app's error body)" },
    },
  },
];

/**
 * `GET /openapi.json`, `GET /docs` and the page's files, for the app that mounts `routers` (and
 * this router). The document is built from the operations attached to those routers, on first
 * request (building takes a few hundred milliseconds that app start-up need not pay), then kept.
 */
export function docsRouter(info: DocumentInfo, routers: Router[]): Router {
  const router = documentRoutes(new Router(), ...docsOperations);
  let built: { document: OpenApiDocument; page: string } | null = null;
  const docs = () => {
    if (!built) {
      const document = buildOpenApiDocument(info, [...routers, router]);
      built = { document, page: renderDocsPage(document) };
    }
    return built;
  };

  router.get("/openapi.json", (ctx) => {
    ctx.body = docs().document;
  });
  router.get("/docs", (ctx) => {
    ctx.set("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
    ctx.type = "html";
    ctx.body = docs().page;
  });
  router.get("/docs/assets/:file", async (ctx) => {
    const asset = await docsAsset(ctx.params.file);
    if (!asset) return; // the error middleware answers 404
    ctx.status = 200; // `ctx.fresh` compares validators only on a 2xx
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.etag = asset.etag;
    ctx.type = asset.type;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  });
  return router;
}
