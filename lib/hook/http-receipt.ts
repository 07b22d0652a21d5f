import type { ReceiptParams } from "../messages";
import { sha256Base64url } from "../protocol/canonical-json";
import { CHALLENGE_PATIENCE_MS } from "./http-payment";
import { readCapped } from "./read-capped";
import { MAX_CHALLENGE_BYTES, RECEIPT_HEADERS, type WalletLink } from "./wallet-link";

/** Largest paid body hashed for a Receipt's `resultHash`; a bigger one goes unchecked. */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

/**
 * Reports what a paid HTTP retry brought, off the page's path (the hook's
 * second half does it): the receipt header it came with; for a 402, the
 * refusal's reason, read from `copy` (or only its status, when that is
 * unread: too long, broken off); for a Stipendex Receipt, the hash of the
 * body served, from `copy`.
 */
export async function fileHttpReceipt(
  paymentId: string,
  retry: Response,
  copy: Response | undefined,
  wallet: WalletLink,
): Promise<void> {
  const receipt = RECEIPT_HEADERS.map((name) => retry.headers.get(name)).find((v) => v !== null);
  const report: ReceiptParams = { paymentId, status: retry.status, receipt: receipt ?? null };
  if (retry.status === 402) {
    const refusal =
      (copy && (await readCapped(copy, MAX_CHALLENGE_BYTES, CHALLENGE_PATIENCE_MS))) || "HTTP 402";
    // x402 v2 says why in the header of the 402 it answers a refused payment with.
    const paymentRequired = retry.headers.get("payment-required");
    const data = paymentRequired === null ? {} : { data: { paymentRequired } };
    wallet.receipt({ ...report, error: { code: 402, message: refusal, ...data } });
    return;
  }
  // Unhashed where the body breaks off or the page has no WebCrypto: reported all the same.
  const resultHash = copy && (await bodyHash(copy).catch(() => undefined));
  wallet.receipt(resultHash ? { ...report, resultHash } : report);
}

/**
 * envelope.md: over HTTP, a Receipt's resultHash is the SHA-256 of the body served: read up to
 * MAX_HASHED_BYTES whatever its declared length (a chunked or compressed answer declares none);
 * a longer one is left unread (and unhashed) rather than buffered whole.
 */
async function bodyHash(response: Response): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_HASHED_BYTES || !response.body) {
    response.body?.cancel().catch(() => undefined);
    return response.body ? undefined : sha256Base64url(new Uint8Array());
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_HASHED_BYTES) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return sha256Base64url(body);
}
