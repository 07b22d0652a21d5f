import { argsHash } from "../canonical-json";
import { ProtocolError } from "../errors";
import type { Resource } from "./claims";

/** The call the client actually made, as the wallet saw it. */
export type ResourceRequest =
  | { kind: "http"; method: string; url: string }
  | { kind: "mcp"; server: string; tool: string; arguments?: unknown };

/**
 * A Quote is bound to one call: the exact URL (HTTP) or the exact endpoint,
 * tool and RFC 8785 hash of the arguments (MCP, absent arguments as {}).
 */
export async function assertResourceMatches(
  resource: Resource,
  request: ResourceRequest,
): Promise<void> {
  if (request.kind === "http") {
    const http = resource.http;
    if (http?.method === request.method.toUpperCase() && http.url === request.url) return;
    throw new ProtocolError(
      "resource-mismatch",
      `Quote resource ${JSON.stringify(resource)} is not the request ${request.method} ${request.url}`,
    );
  }
  const mcp = resource.mcp;
  const hash = await argsHash(request.arguments);
  if (mcp?.server === request.server && mcp.tool === request.tool && mcp.argsHash === hash) return;
  throw new ProtocolError(
    "resource-mismatch",
    `Quote resource ${JSON.stringify(resource)} is not the call of tool ${JSON.stringify(request.tool)} on ${request.server} with argsHash ${hash}`,
  );
}
