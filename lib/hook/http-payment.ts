import type { PaymentChallenge, ReceiptParams } from "../messages";
import type { ReplayableRequest } from "./replay";
import { MAX_CHALLENGE_BYTES, RECEIPT_HEADERS, type WalletLink } from "./wallet-link";

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
  const read = await readCapped(response.clone(), MAX_CHALLENGE_BYTES);
  // A body over the limit still leaves a v2 price readable from its header.
  const body = read ?? (paymentRequiredHeader === null ? undefined : "");
  if (body === undefined) return undefined;
  if (paymentRequiredHeader === null && !/"(quote|accepts)"/.test(body)) return undefined;
  return { transport: "http", url, method, body, paymentRequiredHeader };
}

const REDIRECTED_PAYMENT =
  "The paid request was answered with a redirect: the wallet never carries a payment through a redirect";

/**
 * The HTTP binding: hands a 402 to the wallet, retries once with the payment
 * header, reports the receipt, and gives the page the paid response. On a
 * decline, a refusal, or a second 402, the page gets the original 402.
 */
export async function payHttp402(
  response: Response,
  request: { url: string; method: string; replayable: ReplayableRequest },
  wallet: WalletLink,
  nativeFetch: typeof fetch,
): Promise<Response> {
  const challenge = await readHttpChallenge(response, request.url, request.method);
  if (!challenge) return response;
  let answer: Awaited<ReturnType<WalletLink["pay"]>>;
  try {
    answer = await wallet.pay(challenge);
  } catch {
    return response;
  }
  if (!answer.header) return response;
  let retry: Response;
  try {
    retry = await nativeFetch(
      request.replayable.replay(
        { [answer.header.name]: answer.header.value },
        undefined,
        request.url,
      ),
    );
    if (retry.type === "opaqueredirect") throw new TypeError(REDIRECTED_PAYMENT);
  } catch (error) {
    wallet.receipt({ paymentId: answer.paymentId, status: 0, receipt: null });
    throw error;
  }
  const receipt = RECEIPT_HEADERS.map((name) => retry.headers.get(name)).find((v) => v !== null);
  const refusal =
    retry.status === 402 ? await readCapped(retry.clone(), MAX_CHALLENGE_BYTES) : undefined;
  // x402 v2 says why in the header of the 402 it answers a refused payment with.
  const paymentRequired = retry.headers.get("payment-required");
  const report: ReceiptParams = {
    paymentId: answer.paymentId,
    status: retry.status,
    receipt: receipt ?? null,
    ...(refusal === undefined
      ? {}
      : {
          error: {
            code: 402,
            message: refusal,
            ...(paymentRequired === null ? {} : { data: { paymentRequired } }),
          },
        }),
  };
  if (retry.ok && retry.headers.has("stipendex-receipt")) {
    // A Stipendex Receipt may name the hash of the body served: reported once the page's copy is read.
    void bodyHash(retry.clone()).then(
      (resultHash) => wallet.receipt(resultHash === undefined ? report : { ...report, resultHash }),
      () => wallet.receipt(report),
    );
  } else {
    wallet.receipt(report);
  }
  return retry.status === 402 ? response : retry;
}

/** Largest paid body the hook hashes for a Receipt's `resultHash`; a bigger one goes unchecked. */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

/** base64url SHA-256 of a body (envelope.md: a Receipt's `resultHash` over HTTP), undefined past the cap. */
async function bodyHash(response: Response): Promise<string | undefined> {
  const bytes = await readCappedBytes(response, MAX_HASHED_BYTES);
  if (bytes === undefined) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return btoa(String.fromCharCode(...digest))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Reads a body as text, or undefined when it is longer than `limit` bytes. */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  const bytes = await readCappedBytes(response, limit);
  return bytes && new TextDecoder().decode(bytes);
}

/** Reads a body's bytes, or undefined when it is longer than `limit` bytes. */
async function readCappedBytes(
  response: Response,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit || !response.body) {
    // Not awaited: a clone's cancel settles only once the page's copy is read or cancelled too.
    response.body?.cancel().catch(() => undefined);
    return response.body ? undefined : new Uint8Array();
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
