import type { PaymentAnswer } from "../messages";
import { fileHttpReceipt } from "./http-receipt";
import type { ReplayableRequest } from "./replay";
import { STIPENDEX_RECEIPT_HEADER, type WalletLink } from "./wallet-link";

const REDIRECTED_PAYMENT = "Paid requests never follow redirects";

/**
 * Whether the server's refusal of this payment is kept from the page, which gets
 * the original answer instead: a Stipendex payment's (envelope.md section 7:
 * "records the refusal and hands the page the original answer"). An x402
 * server's refusal is the page's to read (seed 004: "so your client can fix it").
 */
export function refusalKeptFromPage(answer: PaymentAnswer): boolean {
  return answer.header?.name === "Stipendex-Payment" || answer.meta?.key === "stipendex/payment";
}

/** The request a paid 402 answered, as the retry repeats it. */
export interface PricedRequest {
  url: string;
  method: string;
  replayable: ReplayableRequest;
  signal?: AbortSignal;
}

/**
 * The HTTP binding's second step, in the hook's second half: retries the
 * priced request once with the payment `answer` carries, reports what came
 * back (the receipt, a refusal, no answer at all), and gives the page the paid
 * response; a 402 refusing the payment as it came, unless refusalKeptFromPage.
 */
export async function sendPaidRetry(
  response: Response,
  request: PricedRequest,
  answer: PaymentAnswer & { header: NonNullable<PaymentAnswer["header"]> },
  { wallet, nativeFetch }: { wallet: WalletLink; nativeFetch: typeof fetch },
): Promise<Response> {
  let retry: Response;
  let sent = false;
  let redirected = false;
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
    redirected = retry.type === "opaqueredirect";
    if (redirected) throw new TypeError(REDIRECTED_PAYMENT);
  } catch (error) {
    wallet.receipt({
      paymentId: answer.paymentId,
      status: 0,
      receipt: null,
      // The server had the payment, and answered: with a redirect the retry does not follow.
      unanswered: redirected
        ? "redirected"
        : !sent
          ? "not-sent"
          : request.signal?.aborted
            ? "given-up"
            : "no-response",
    });
    throw error;
  }
  const refused = retry.status === 402;
  // Read off the page's path: a copy taken now, before the page reads the body.
  const copy =
    refused || (retry.ok && retry.headers.has(STIPENDEX_RECEIPT_HEADER))
      ? retry.clone()
      : undefined;
  const filed = fileHttpReceipt(answer.paymentId, retry, copy, wallet);
  if (!refused) return retry;
  // The reason is read before the page has an answer: a page done with it may give its request
  // up (an MCP client closing), and the refusal's body with it.
  await filed;
  if (!refusalKeptFromPage(answer)) return retry;
  retry.body?.cancel().catch(() => undefined);
  return response;
}
