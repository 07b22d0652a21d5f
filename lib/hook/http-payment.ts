import type { PaymentChallenge } from "../messages";
import { carriesNoBody } from "./http-method";
import type { McpHook } from "./mcp-hook";
import type { PricedRequest } from "./paid-retry";
import { readCapped } from "./read-capped";
import { MAX_CHALLENGE_BYTES, type WalletLink } from "./wallet-link";

/** How long the page's 402 is held while its price is read: a price is a few kB, sent at once. */
export const CHALLENGE_PATIENCE_MS = 5_000;

/**
 * Reads a 402 into a challenge for the wallet, from a clone so the page can
 * still read the original. Undefined when the 402 carries no price the
 * wallet speaks (a cheap look; the wallet does the real parsing).
 */
export async function readHttpChallenge(
  response: Response,
  url: string,
  method: string,
  patienceMs = CHALLENGE_PATIENCE_MS,
): Promise<PaymentChallenge | undefined> {
  const paymentRequiredHeader = response.headers.get("payment-required");
  // Read even beside an x402 v2 header: the body may hold the receiver's Stipendex Quote.
  // Bounded in time too: the page waits for this read, and a 402 may stream for ever.
  const body = (await readCapped(response.clone(), MAX_CHALLENGE_BYTES, patienceMs)) ?? "";
  if (paymentRequiredHeader === null && !/"(quote|accepts)"/.test(body)) return undefined;
  return { transport: "http", url, method, body, paymentRequiredHeader };
}

/** What paying a 402 over HTTP needs of the hook. */
export interface HttpPayer {
  wallet: WalletLink;
  /** The browser's own fetch, for the paid retry. */
  nativeFetch: typeof fetch;
  /** The hook's second half, loaded on first use: it sends paid retries, reports them, reads XHR answers. */
  loadHalf(): Promise<McpHook>;
}

/**
 * The URL a 402 is paid at: the one that answered, or undefined (not paid). After a
 * redirect the hook cannot know how fetch rebuilt the request (a 303 drops the
 * body, another origin the Authorization): it pays only a GET or HEAD that stayed
 * on its origin, so the paid retry is the very request that was priced.
 */
export function pricedUrl(
  request: { url: string; method: string },
  answer: { url: string; redirected: boolean },
): string | undefined {
  const { url } = answer;
  if (!url) return request.url;
  // An answer's URL has no fragment.
  if (!answer.redirected && url === request.url.split("#")[0]) return url;
  return carriesNoBody(request.method) && new URL(url).origin === new URL(request.url).origin
    ? url
    : undefined;
}

/**
 * The HTTP binding: hands a 402 to the wallet and, once it paid, has the hook's
 * second half retry the request with the payment (paid-retry.ts), whose
 * answer the page gets (an x402 server's refusal too). On a decline, or a
 * Stipendex receiver's refusal, the page gets the original 402. When the page
 * aborts its request while the wallet asks, the request is withdrawn.
 */
export async function payHttp402(
  response: Response,
  request: PricedRequest,
  payer: HttpPayer,
): Promise<Response> {
  const challenge = await readHttpChallenge(response, request.url, request.method);
  if (!challenge) return response;
  const { wallet } = payer;
  // Loading while the wallet decides: the retry is sent by the half.
  const half = payer.loadHalf();
  half.catch(() => undefined);
  // Aborted while its 402 was read: the page gave it up before the wallet could be asked.
  request.signal?.throwIfAborted();
  let answer: Awaited<ReturnType<WalletLink["pay"]>>;
  try {
    answer = await wallet.pay(challenge, request.signal);
  } catch {
    // Given up while the wallet asked (the request is withdrawn): rejected as an aborted fetch is.
    if (request.signal?.aborted) throw request.signal.reason;
    return response;
  }
  const { header } = answer;
  if (!header) return response;
  return half.then(
    (loaded) => loaded.sendPaidRetry(response, request, { ...answer, header }, payer),
    () => {
      // Signed, and never sent: the page gets its 402, the history says so.
      wallet.receipt({
        paymentId: answer.paymentId,
        status: 0,
        receipt: null,
        unanswered: "not-sent",
      });
      return response;
    },
  );
}
