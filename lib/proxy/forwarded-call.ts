import { AsyncLocalStorage } from "node:async_hooks";

/** A host's tool call the proxy forwards: the payment its HTTP 402 took, once taken. */
export interface ForwardedCall {
  paidAtHttp?: string;
}

/**
 * The call whose forwarding is running: the transport's fetch (http-402.ts)
 * runs inside it, so what the HTTP layer paid is known to the MCP layer
 * above (paid-call.ts) without telling one call from another by id.
 */
const forwarding = new AsyncLocalStorage<ForwardedCall>();

/** Runs `forward` as one call, handing it what its HTTP layer paid. */
export function asForwardedCall<T>(forward: (call: ForwardedCall) => Promise<T>): Promise<T> {
  const call: ForwardedCall = {};
  return forwarding.run(call, () => forward(call));
}

/** Notes that the call being forwarded paid `paymentId` at the HTTP layer. */
export function notePaidAtHttp(paymentId: string): void {
  const call = forwarding.getStore();
  if (call) call.paidAtHttp = paymentId;
}
