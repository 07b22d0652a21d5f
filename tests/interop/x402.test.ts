import type { x402Facilitator } from "@x402/core/facilitator";
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { type Address, type LocalAccount, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settle as settleV1, verify as verifyV1 } from "x402/facilitator";
import { decodePayment } from "x402/schemes";
import type { PaymentRequirements as PaymentRequirementsV1 } from "x402/types";
import {
  BASE_SEPOLIA,
  type DevAccount,
  eip3009TokenAbi,
  type LocalChain,
  revertReason,
  startLocalChain,
} from "../../demo/chain";
import type { Offer, PaymentOption } from "../../lib/protocol/offer";
import { signTransferWithAuthorization } from "../../lib/protocol/rails/eip3009";
import { readHttp402 } from "../../lib/protocol/x402/http";
import { buildPaymentPayload, paymentHeader } from "../../lib/protocol/x402/payment";
import { watchBalances } from "./balances";
import { type V1Signer, v1Signer, v2Facilitator } from "./facilitators";
import { expectV2ReplayRefused, USED_OR_CANCELED } from "./replay";
import { readContext, v1Requirement, v2PaymentRequired, v2Requirement } from "./requirements";

const AMOUNT = 12_345n;
const TX_HASH = /^0x[0-9a-f]{64}$/;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const payerAccount = (account: DevAccount | undefined): LocalAccount => {
  if (!account) throw new Error("demo/chain funded fewer payers than the test asked for");
  return privateKeyToAccount(account.privateKey);
};
const firstOption = (offer: Offer): PaymentOption => {
  const option = offer.options[0];
  if (!option) throw new Error("the offer has no payable option");
  return option;
};

/** What the wallet sends: lib signs the offer's option and writes the retry header. */
async function payWithLib(account: LocalAccount, offer: Offer, option = firstOption(offer)) {
  const signed = await signTransferWithAuthorization(account, option, { now: nowSeconds() });
  return paymentHeader(buildPaymentPayload(offer, option, signed));
}

let chain: LocalChain;
let payee: Address;

beforeAll(async () => {
  chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 2 });
  payee = chain.accounts.payee.address;
});
afterAll(async () => {
  await chain?.stop();
});

/** The token moved by exactly `amount` in the mined transaction `hash`. */
async function expectTransferred(hash: `0x${string}`, from: Address, amount: bigint) {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  const transfers = parseEventLogs({
    abi: eip3009TokenAbi,
    eventName: "Transfer",
    logs: receipt.logs,
  });
  expect(transfers.map((log) => log.args)).toEqual([{ from, to: payee, value: amount }]);
}

describe("x402 v1: lib's X-PAYMENT against x402 1.2's facilitator", () => {
  let account: LocalAccount;
  let requirement: PaymentRequirementsV1;
  let offer: Offer;
  let signer: V1Signer;

  beforeAll(() => {
    account = payerAccount(chain.accounts.payers[0]);
    requirement = v1Requirement({ amount: AMOUNT, payTo: payee });
    const body = JSON.stringify({
      x402Version: 1,
      error: "X-PAYMENT header is required",
      accepts: [requirement],
    });
    offer = readHttp402({ headers: new Headers(), body }, readContext());
    signer = v1Signer(chain);
  });

  it("reads the requirement into the chain's token and amount", () => {
    expect(firstOption(offer)).toMatchObject({
      network: "eip155:84532",
      chainId: chain.chainId,
      asset: chain.token.address,
      amount: AMOUNT,
      payTo: payee,
      eip712: { name: chain.token.name, version: chain.token.version },
    });
  });

  it("verifies, settles on chain, and a replay reverts with the token's own reason", async () => {
    const header = await payWithLib(account, offer);
    expect(header.name).toBe("X-PAYMENT");
    const payment = decodePayment(header.value);

    expect(await verifyV1(signer, payment, requirement)).toEqual({
      isValid: true,
      invalidReason: undefined,
      payer: account.address,
    });

    const { result: settled, ...moved } = await watchBalances(chain, account.address, payee, () =>
      settleV1(signer, payment, requirement),
    );
    expect(settled).toMatchObject({
      success: true,
      network: "base-sepolia",
      payer: account.address,
    });
    expect(settled.transaction).toMatch(TX_HASH);
    await expectTransferred(settled.transaction as `0x${string}`, account.address, AMOUNT);
    expect(moved).toEqual({ paid: AMOUNT, received: AMOUNT });

    // v1 settle sends without simulating, so the token's revert surfaces as viem's error.
    const replay = await watchBalances(chain, account.address, payee, () =>
      settleV1(signer, payment, requirement).then(
        (result) => ({ settledAgain: result }),
        (error: unknown) => ({ reason: revertReason(error) }),
      ),
    );
    expect(replay).toEqual({ result: { reason: USED_OR_CANCELED }, paid: 0n, received: 0n });
  });

  it("refuses a payment whose amount was changed after signing", async () => {
    const payment = decodePayment((await payWithLib(account, offer)).value);
    if (!("authorization" in payment.payload)) throw new Error("not an EVM payload");
    payment.payload.authorization.value = (AMOUNT + 1n).toString();
    expect(await verifyV1(signer, payment, requirement)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_signature",
    });
  });

  it("refuses a payment signed under another EIP-712 domain name", async () => {
    const option = firstOption(offer);
    const wrongDomain = { ...option, eip712: { ...option.eip712, name: "USD Coin" } };
    const wrongOffer = { ...offer, options: [wrongDomain] };
    const payment = decodePayment((await payWithLib(account, wrongOffer, wrongDomain)).value);
    expect(await verifyV1(signer, payment, requirement)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_signature",
    });
  });
});

describe("x402 v2: lib's PAYMENT-SIGNATURE against @x402/core + @x402/evm's facilitator", () => {
  let account: LocalAccount;
  let requirement: PaymentRequirements;
  let facilitator: x402Facilitator;

  const offerFor = (accepted: PaymentRequirements) =>
    readHttp402(
      {
        headers: new Headers({
          "PAYMENT-REQUIRED": encodePaymentRequiredHeader(v2PaymentRequired(accepted)),
        }),
        body: "",
      },
      readContext(),
    );
  const signedPayment = async (accepted: PaymentRequirements) => {
    const header = await payWithLib(account, offerFor(accepted));
    expect(header.name).toBe("PAYMENT-SIGNATURE");
    return decodePaymentSignatureHeader(header.value);
  };

  beforeAll(() => {
    account = payerAccount(chain.accounts.payers[1]);
    requirement = v2Requirement({ amount: AMOUNT, payTo: payee });
    facilitator = v2Facilitator(chain);
  });

  it("verifies, settles on chain, and a replay fails with the token's own reason", async () => {
    const payment = await signedPayment(requirement);
    expect(payment.accepted).toEqual(requirement);

    expect(await facilitator.verify(payment, requirement)).toMatchObject({
      isValid: true,
      payer: account.address,
    });

    const { result: settled, ...moved } = await watchBalances(chain, account.address, payee, () =>
      facilitator.settle(payment, requirement),
    );
    expect(settled).toMatchObject({
      success: true,
      network: "eip155:84532",
      payer: account.address,
    });
    expect(settled.transaction).toMatch(TX_HASH);
    await expectTransferred(settled.transaction as `0x${string}`, account.address, AMOUNT);
    expect(moved).toEqual({ paid: AMOUNT, received: AMOUNT });

    await expectV2ReplayRefused(chain, facilitator, payment, requirement);

    // verify simulates on chain, so it refuses the spent authorization before any settle. Its
    // finer diagnosis needs Multicall3, which the local chain lacks: the token's reason is the message.
    const reverified = await facilitator.verify(payment, requirement);
    expect(reverified).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_transaction_simulation_failed",
    });
    expect(reverified.invalidMessage).toContain(USED_OR_CANCELED);
  });

  it("refuses a payment whose amount was changed after signing", async () => {
    const payment = await signedPayment(requirement);
    const tampered = {
      ...payment,
      payload: {
        ...payment.payload,
        authorization: {
          ...(payment.payload.authorization as Record<string, unknown>),
          value: (AMOUNT + 1n).toString(),
        },
      },
    };
    expect(await facilitator.verify(tampered, requirement)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_signature",
    });
  });

  it("refuses a payment signed under another EIP-712 domain name", async () => {
    const offer = offerFor(requirement);
    const option = firstOption(offer);
    const wrongDomain = { ...option, eip712: { ...option.eip712, name: "USD Coin" } };
    const header = await payWithLib(account, { ...offer, options: [wrongDomain] }, wrongDomain);
    const payment = decodePaymentSignatureHeader(header.value);
    expect(await facilitator.verify(payment, requirement)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_signature",
    });
  });

  it("never signs for a requirement that names the token's domain wrongly: the chain refuses it", async () => {
    const lying = { ...requirement, extra: { name: "USD Coin", version: "2" } };
    expect(() => offerFor(lying)).toThrow(
      expect.objectContaining({
        code: "no-payable-option",
        message: expect.stringContaining("domain-mismatch"),
      }),
    );
    // What lib signed before it refused: the facilitator's simulation asks the token itself.
    const offer = offerFor(requirement);
    const wrongDomain = { ...firstOption(offer), eip712: lying.extra };
    const header = await payWithLib(account, { ...offer, options: [wrongDomain] }, wrongDomain);
    const payment = { ...decodePaymentSignatureHeader(header.value), accepted: lying };
    const verified = await facilitator.verify(payment, lying);
    expect(verified).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_transaction_simulation_failed",
    });
    expect(verified.invalidMessage).toContain("FiatTokenV2_2: invalid signature");
  });
});
