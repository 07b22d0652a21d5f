import type { PaymentChallenge } from "../messages";
import type { McpHook } from "./mcp-hook";
import { readCapped } from "./read-capped";
import type { ReplayableRequest } from "./replay";
import { MAX_CHALLENGE_BYTES, STIPENDEX_RECEIPT_HEADER, type WalletLink } from "./wallet-link";

/**
 * Reads a 402 into a challenge for the wallet, from a clone so the page can
 * still read the original. Undefined when the 402 carries no price the
 * wallet speaks (a cheap look; the wallet does the real parsing).
 */
export async function readHttpChallenge(
  response: Response,
  url: string,
  method: string,
): Promise<PaymentChallenge | undefined> {
  const paymentRequiredHeader = response.headers.get("payment-required");
  // Read even beside an x402 v2 header: the body may hold the receiver's Stipendex Quote.
  const body = (await readCapped(response.clone(), MAX_CHALLENGE_BYTES)) ?? "";
  if (paymentRequiredHeader === null && !/"(quote|accepts)"/.test(body)) return undefined;
  return { transport: "http", url, method, body, paymentRequiredHeader };
}

/** What paying a 402 over HTTP needs of the hook. */
export interface HttpPayer {
  wallet: WalletLink;
  /** The browser's own fetch, for the paid retry. */
  nativeFetch: typeof fetch;
  /** The hook's second half, loaded on first use: it also hashes paid bodies and reads XHR answers. */
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
  return /^(GET|HEAD)$/.test(request.method) && new URL(url).origin === new URL(request.url).origin
    ? url
    : undefined;
}

const REDIRECTED_PAYMENT = "Paid requests never follow redirects";

/**
 * The HTTP binding: hands a 402 to the wallet, retries once with the payment
 * header, reports the receipt, and gives the page the paid response. On a
 * decline, a refusal, or a second 402, the page gets the original 402. When
 * the page aborts its request while the wallet asks, the request is withdrawn.
 */
export async function payHttp402(
  response: Response,
  request: { url: string; method: string; replayable: ReplayableRequest; signal?: AbortSignal },
  { wallet, nativeFetch, loadHalf }: HttpPayer,
): Promise<Response> {
  const challenge = await readHttpChallenge(response, request.url, request.method);
  if (!challenge) return response;
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
  if (!answer.header) return response;
  let retry: Response;
  let sent = false;
  try {
    // Given up once the wallet had signed (too late to withdraw): never sent, and history says so.
    request.signal?.throwIfAborted();
    sent = true;
    retry = await nativeFetch(
      request.replayable.replay(
        { [answer.header.name]: answer.header.value },
        undefined,
        request.url,
      ),
    );
    if (retry.type === "opaqueredirect") throw new TypeError(REDIRECTED_PAYMENT);
  } catch (error) {
    wallet.receipt({
      paymentId: answer.paymentId,
      status: 0,
      receipt: null,
      unanswered: sent ? "no-response" : "not-sent",
    });
    throw error;
  }
  const refused = retry.status === 402;
  // Read by the second half once loaded: a copy taken now, before the page reads the body.
  const copy =
    refused || (retry.ok && retry.headers.has(STIPENDEX_RECEIPT_HEADER))
      ? retry.clone()
      : undefined;
  void loadHalf().then(
    (half) => half.fileHttpReceipt(answer.paymentId, retry, copy, wallet),
    () => copy?.body?.cancel(),
  );
  if (!refused) return retry;
  // The page gets the original 402; the refusal is read from the copy.
  retry.body?.cancel().catch(() => undefined);
  return response;
}
