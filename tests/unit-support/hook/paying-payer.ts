import type { HttpPayer } from "../../../lib/hook/http-payment";
import { createMcpHook } from "../../../lib/hook/mcp-hook";
import type { PaymentChallenge } from "../../../lib/messages";

/**
 * An HttpPayer whose wallet pays every price with a Stipendex Proof ("proof"),
 * noting each challenge and each request the hook sends, answered by `server`.
 */
export function payingPayer(server: (request: Request) => Response): {
  payer: HttpPayer;
  challenges: PaymentChallenge[];
  sent: Request[];
} {
  const challenges: PaymentChallenge[] = [];
  const sent: Request[] = [];
  const payer: HttpPayer = {
    wallet: {
      pay: async (challenge) => {
        challenges.push(challenge);
        return { paymentId: "p1", header: { name: "Stipendex-Payment", value: "proof" } };
      },
      receipt: () => undefined,
      elicit: async () => ({ action: "decline" }),
      reportMcpServer: () => undefined,
    },
    nativeFetch: async (input) => {
      const request = input as Request;
      sent.push(request);
      return server(request);
    },
    loadHalf: async () => createMcpHook(),
  };
  return { payer, challenges, sent };
}
