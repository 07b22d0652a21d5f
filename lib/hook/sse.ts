/**
 * A Server-Sent Events splitter that keeps each event's raw text, so a
 * stream can be passed on unchanged event by event while its data is read.
 */

export interface SseEvent {
  /** The event's exact text, including the blank line that ended it. */
  raw: string;
  /** Joined `data:` lines, or undefined when the event had none (e.g. a comment). */
  data: string | undefined;
  event: string | undefined;
  id: string | undefined;
  /** The reconnection time it sets, in ms (a `retry:` of digits only, as the standard takes). */
  retry?: number;
}

const EVENT_END = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/;

/** Splits decoded text into complete events; call `flush()` at the end of the stream. */
export class SseSplitter {
  private buffer = "";

  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (let match = EVENT_END.exec(this.buffer); match; match = EVENT_END.exec(this.buffer)) {
      const end = match.index + match[0].length;
      events.push(parseEvent(this.buffer.slice(0, end)));
      this.buffer = this.buffer.slice(end);
    }
    return events;
  }

  /** What is left when the stream ends without a final blank line. */
  flush(): SseEvent | undefined {
    if (this.buffer === "") return undefined;
    const rest = parseEvent(this.buffer);
    this.buffer = "";
    return rest;
  }
}

function parseEvent(raw: string): SseEvent {
  const data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  for (const line of raw.split(/\r\n|\n|\r/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    // The SSE standard ignores an id holding U+0000, as MCP's SDK does (eventsource-parser).
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
  }
  const parsed = { raw, data: data.length ? data.join("\n") : undefined, event, id };
  return retry === undefined ? parsed : { ...parsed, retry };
}

/** Formats one JSON-RPC message as an SSE `message` event. */
export function formatSseMessage(message: unknown, id?: string): string {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return `event: message\n${idLine}data: ${JSON.stringify(message)}\n\n`;
}
