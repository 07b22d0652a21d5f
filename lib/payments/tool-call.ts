import type { PaymentChallenge } from "../messages";
import { argsHash } from "../protocol/canonical-json";
import type { Offer } from "../protocol/offer";

/** A tools/call's arguments as the page sent them (undefined: it sent none). */
export interface ToolCall {
  arguments: unknown;
}

/** An MCP price's tools/call, for the window to show what is paid for. */
export function toolCall(challenge: PaymentChallenge): ToolCall | undefined {
  return challenge.transport === "mcp" ? { arguments: challenge.arguments } : undefined;
}

/**
 * `call` if it is the one `offer` is priced for (its argsHash): a page asking again
 * under the same request id may send other arguments than the payment was recorded with.
 */
export async function boundCall(
  offer: Offer,
  call: ToolCall | undefined,
): Promise<ToolCall | undefined> {
  if (call === undefined || offer.resource.kind !== "mcp") return undefined;
  return (await argsHash(call.arguments)) === offer.resource.argsHash ? call : undefined;
}
