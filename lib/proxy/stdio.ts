import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Serves `server` to a desktop host over stdio. MCP's stdio transport ends a
 * session by closing the server's input; the SDK's transport does not watch for
 * that, so the server is closed here when it happens (and its `onclose` runs:
 * the upstream session is ended) instead of being killed by the host later.
 */
export async function serveStdio(
  server: Server,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
): Promise<void> {
  await server.connect(new StdioServerTransport(input, output));
  input.once("end", () => void server.close());
}
