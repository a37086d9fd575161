/** One Server-Sent Events frame: its event name (`message` when none was given), parsed data and `id` (if any). */
export interface SseFrame {
  event: string;
  data: any;
  id?: string;
}

/** Parses a complete `text/event-stream` body into frames (comments ignored). */
export function parseSse(body: string): SseFrame[] {
  return body
    .split(/\n\n/)
    .map((block) => block.split("\n").filter((line) => line && !line.startsWith(":")))
    .filter((lines) => lines.some((l) => l.startsWith("data:")))
    .map((lines) => {
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      let parsed: unknown = data;
      try {
        parsed = JSON.parse(data);
      } catch {
        /* plain text data */
      }
      const id = lines
        .find((l) => l.startsWith("id:"))
        ?.slice(3)
        .trim();
      return { event, data: parsed, ...(id === undefined ? {} : { id }) };
    });
}

/**
 * A streamed `text/event-stream` body's frames as they arrive (comments counted in `comments`),
 * for clients that read part of a stream and then hang up.
 */
export class SseReader {
  private buffer = "";
  private readonly decoder = new TextDecoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The comment lines (`: ping`) seen so far. */
  comments: string[] = [];

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** The next frame, or null when the stream ended. */
  async next(): Promise<SseFrame | null> {
    for (;;) {
      const cut = this.buffer.indexOf("\n\n");
      if (cut >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        const comments = block.split("\n").filter((l) => l.startsWith(":"));
        this.comments.push(...comments);
        const [frame] = parseSse(`${block}\n\n`);
        if (frame) return frame;
        continue;
      }
      const { value, done } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Every frame left, until the stream ends. */
  async rest(): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    for (let f = await this.next(); f; f = await this.next()) frames.push(f);
    return frames;
  }

  /** Hangs up. */
  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}
