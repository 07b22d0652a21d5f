import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { devAccounts } from "../../demo/chain/dev-accounts";
import { signTransferWithAuthorization } from "../../lib/protocol/rails/eip3009";
import { buildPaymentPayload, paymentHeader } from "../../lib/protocol/x402/payment";
import { readPaymentRequired } from "../../lib/protocol/x402/payment-required";
import { readContext, v2PaymentRequired, v2Requirement } from "../interop/requirements";
import type { BenchSuite } from "./bench";

export const LIB_X402 = "x402 v2 payment: lib";
export const OFFICIAL_X402 = "x402 v2 payment: @x402/evm client";

function payer() {
  const key = devAccounts(1).payers[0]?.privateKey;
  if (!key) throw new Error("anvil's dev keys ran out");
  return privateKeyToAccount(key);
}

const paymentRequired = () =>
  v2PaymentRequired(v2Requirement({ amount: 10_000n, payTo: devAccounts(0).payee.address }));

/** One PaymentRequired in, one PAYMENT-SIGNATURE header out, both ways, in the same process. */
export const x402PaymentSuite: BenchSuite = {
  title: "Build one x402 v2 payment (read requirement, sign EIP-3009, write header)",
  benches: [
    {
      name: LIB_X402,
      async prepare() {
        const account = payer();
        const required = paymentRequired();
        const context = readContext();
        return async () => {
          const offer = readPaymentRequired(required, "http", context);
          const option = offer.options[0];
          if (!option) throw new Error("lib found nothing to pay");
          const now = Math.floor(Date.now() / 1000);
          const signed = await signTransferWithAuthorization(account, option, { now });
          return paymentHeader(buildPaymentPayload(offer, option, signed));
        };
      },
    },
    {
      name: OFFICIAL_X402,
      async prepare() {
        const client = registerExactEvmScheme(new x402Client(), { signer: payer() });
        const required = paymentRequired();
        return async () =>
          encodePaymentSignatureHeader(await client.createPaymentPayload(required));
      },
    },
  ],
  ratios: [{ label: "lib / official", numerator: LIB_X402, denominator: OFFICIAL_X402 }],
};
