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
