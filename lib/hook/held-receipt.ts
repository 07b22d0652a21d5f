import type { ReceiptParams, Unanswered } from "../messages";
import { isResponseTo, type JsonRpcId } from "./jsonrpc";
import { httpAnswerReceipt } from "./mcp-payment";
import type { WalletLink } from "./wallet-link";

/**
 * The receipt of a tools/call paid the HTTP way (seed 004's 402), held until
 * the call's JSON-RPC answer is known: the HTTP binding reports it with the
 * paid retry's headers, before its answer (on SSE, long before), and one
 * that answers with a JSON-RPC error has not brought the result it paid for.
 * Only a 2xx's is held; any other report passes through as it is. The page hook and the
 * desktop proxy (proxy/http-402.ts) both hold their receipts so.
 */
export function holdReceipt(wallet: WalletLink, id: JsonRpcId) {
  let report: (params: ReceiptParams) => void = () => undefined;
  // Never settled when the paid retry was refused or failed: nothing is held then.
  const reported = new Promise<ReceiptParams>((resolve) => {
    report = resolve;
  });
  let answer: Record<string, unknown> | undefined;
  return {
    wallet: {
      ...wallet,
      receipt: (params: ReceiptParams) => {
        const answered = params.status >= 200 && params.status < 300;
        if (answered && !params.error && !params.unanswered) report(params);
        else wallet.receipt(params);
      },
    } satisfies WalletLink,
    /** Takes `message` as the call's answer, when it is the first to answer it. */
    note(message: unknown) {
      if (!answer && isResponseTo(message, id)) answer = message;
    },
    /** Whether the call's answer was noted. */
    answered: () => answer !== undefined,
    /**
     * Files the held receipt, as the answer noted says; without one, as `unanswered`
     * (undefined: the answer could not be looked at, and it is filed as it came).
     */
    file(unanswered: Unanswered | undefined) {
      void reported.then((held) =>
        wallet.receipt(
          answer ? httpAnswerReceipt(held, answer) : unanswered ? { ...held, unanswered } : held,
        ),
      );
    },
  };
}
