/**
 * The bytes of a response's body, or null once they pass `maxBytes` (a larger declared length is
 * refused unread, and the rest of a body that grows past it is never read).
 */
export async function boundedBytes(res: Response, maxBytes: number): Promise<Buffer | null> {
  const declared = Number(res.headers.get("content-length"));
  if (declared > maxBytes || !res.body) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
