import type { PaymentChallenge } from "../messages";
import { argsHash } from "../protocol/canonical-json";
import type { Offer } from "../protocol/offer";

/**
 * A tools/call as the page sent it: an MCP price's arguments (undefined: it
 * sent none); for an HTTP price (seed 004) also the tool, as the page says its
 * POST carries it.
 */
export interface ToolCall {
  arguments: unknown;
  tool?: string;
}

/** The tools/call a price is for, for the window to show what is paid for. */
export function toolCall(challenge: PaymentChallenge): ToolCall | undefined {
  if (challenge.transport === "mcp") return { arguments: challenge.arguments };
  // Arguments left out (too long to pass on) stay out: the window says so.
  return challenge.call && { tool: challenge.call.tool, arguments: challenge.call.arguments };
}

/**
 * `call` if it can be shown with `offer`: for an MCP price, only the one it is
 * priced for (its argsHash), as a page asking again under the same request id
 * may send other arguments than the payment was recorded with; for an HTTP
 * price, which names only its address, the call the page says it is.
 */
export async function boundCall(
  offer: Offer,
  call: ToolCall | undefined,
): Promise<ToolCall | undefined> {
  if (call === undefined) return undefined;
  if (offer.resource.kind === "http") return call.tool === undefined ? undefined : call;
  return (await argsHash(call.arguments)) === offer.resource.argsHash ? call : undefined;
}
