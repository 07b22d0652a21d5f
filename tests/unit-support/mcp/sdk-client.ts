import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach } from "vitest";

/** The transports a test file started, closed after each test. */
const open: StreamableHTTPClientTransport[] = [];
afterEach(async () => {
  for (const transport of open.splice(0)) await transport.close();
});

/**
 * MCP's own SDK client transport over `fetch`, started, with every message it
 * hands its client and every error it reports kept in order.
 */
export async function sdkClient(
  endpoint: string,
  options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
) {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), options);
  open.push(transport);
  const messages: JSONRPCMessage[] = [];
  const errors: unknown[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  return { transport, messages, errors };
}
