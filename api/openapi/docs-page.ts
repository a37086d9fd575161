import escapeHtml from "escape-html";
import type { OpenApiDocument } from "./document";

/** Where the docs page loads its files from (served by the docs router, never from a CDN). */
const DOCS_ASSETS_PATH = "/docs/assets";

/** A plain index of every operation, for readers without JavaScript (and for search). */
function operationIndex(document: OpenApiDocument): string {
  const rows = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const statuses = Object.keys(op.responses ?? {}).join(", ");
      return `<li><code>${method.toUpperCase()} ${escapeHtml(path)}</code> — ${escapeHtml(op.summary ?? "")} <small>(${statuses})</small></li>`;
    }),
  );
  return `<h1>${escapeHtml(document.info.title)}</h1><p>The interactive reference needs JavaScript; the full document is at <a href="/openapi.json">/openapi.json</a>.</p><ul>${rows.join("")}</ul>`;
}

/**
 * The docs page: Swagger UI from the `swagger-ui-dist` package, reading this app's `/openapi.json`.
 * Everything it loads comes from this server, so it works offline.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const title = escapeHtml(document.info.title);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — reference</title>
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-spec-url="/openapi.json"></div>
<noscript>${operationIndex(document)}</noscript>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS_PATH}/docs-init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI on the page's document; no validator badge (it would call an outside service). */
export const DOCS_INIT_SCRIPT = `window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true
  });
});
`;

/**
 * Keeps the page to this server's files: a browser refuses anything else, so an offline install
 * behaves like an online one. Swagger UI styles elements inline, hence `'unsafe-inline'` for styles.
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
