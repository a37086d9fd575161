import { createServer, type Server } from "node:http";
import { GIF_1PX, PNG_1PX } from "./images";
import { closeNow, listenLocally } from "./local-server";

/** A local server with images and things that are not, standing for a client's image host. */
export interface ImageServer {
  /** Its base URL (http://127.0.0.1:port), allowed by the tests' EGRESS_ALLOW. */
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

/**
 * Serves `/a.png` (a PNG, declared as text/plain: the type is read from the bytes), `/b.gif`,
 * `/page.html`, `/x.svg` and `/redirect?to=<url>` (a 302 there).
 */
export async function startImageServer(): Promise<ImageServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://local");
    const send = (type: string, body: Buffer | string) => res.writeHead(200, { "content-type": type }).end(body);
    if (url.pathname === "/a.png") return send("text/plain", PNG_1PX);
    if (url.pathname === "/b.gif") return send("image/gif", GIF_1PX);
    if (url.pathname === "/page.html") return send("text/html", "<html><body>not an image</body></html>");
    if (url.pathname === "/x.svg") return send("image/svg+xml", SVG);
    if (url.pathname === "/redirect") return res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
    res.writeHead(404).end();
  });
  const url = await listenLocally(server);
  return { url, requests, close: () => closeNow(server) };
}
