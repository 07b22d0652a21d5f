import type { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload } from "@x402/core/types";
import type { Address, LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import type { Rail } from "../../lib/protocol/envelope/claims";
import { verifyProof } from "../../lib/protocol/envelope/proof";
import { signQuote, verifyQuote } from "../../lib/protocol/envelope/quote";
import { signReceipt, verifyReceipt } from "../../lib/protocol/envelope/receipt";
import { MemoryQuoteReplayGuard } from "../../lib/protocol/envelope/replay-guard";
import type { WalletSigner } from "../../lib/protocol/envelope/wallet-key";
import { watchBalances } from "./balances";
import { v2Facilitator } from "./facilitators";
import { expectV2ReplayRefused } from "./replay";
import { RESOURCE_URL } from "./requirements";
import {
  AGENT_ORIGIN,
  exactRail,
  makeReceiver,
  makeWallet,
  payQuote,
  quoteInput,
  RECEIVER_ID,
  type Receiver,
  railRequirement,
} from "./stipendex-parties";

const AMOUNT = 5_000n;

let chain: LocalChain;
let payee: Address;
let rail: Rail;
let receiver: Receiver;
let wallet: WalletSigner;
let account: LocalAccount;
let facilitator: x402Facilitator;

beforeAll(async () => {
  chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  payee = chain.accounts.payee.address;
  rail = exactRail(chain.token, AMOUNT, payee, chain.chainId);
  receiver = await makeReceiver([rail]);
  wallet = await makeWallet();
  const payer = chain.accounts.payers[0];
  if (!payer) throw new Error("demo/chain funded no payer");
  account = privateKeyToAccount(payer.privateKey);
  facilitator = v2Facilitator(chain);
});
afterAll(async () => {
  await chain?.stop();
});

describe("Stipendex cycle on the local chain, settled by the official x402 v2 facilitator", () => {
  it("Quote → Confirmation + Proof → verify, settle, tokens move → Receipt the wallet accepts", async () => {
    const now = Math.floor(Date.now() / 1000);
    const request = { kind: "http", method: "GET", url: RESOURCE_URL } as const;

    // Receiver: signs a Quote. Wallet: verifies it for the call it saw, then pays it.
    const quoteJws = await signQuote(quoteInput(rail, now), receiver.key);
    const walletQuote = await verifyQuote(quoteJws, { descriptor: receiver.descriptor, request });
    const { proof, proofHash, confirmation } = await payQuote(walletQuote, wallet, account, now);

    // Receiver: verifies its Quote and the Proof, once only.
    const guard = new MemoryQuoteReplayGuard();
    const quote = await verifyQuote(quoteJws, { descriptor: receiver.descriptor });
    const verified = await verifyProof(proof, {
      quote,
      receiverId: RECEIVER_ID,
      replayGuard: guard,
    });
    expect(verified.walletId).toBe(wallet.id);
    expect(verified.hash).toBe(proofHash);
    expect(verified.confirmation).toMatchObject({
      jws: confirmation,
      walletId: wallet.id,
      claims: { decision: "approve", origin: AGENT_ORIGIN, qh: quote.hash },
    });
    expect(verified.claims.payment.authorization).toMatchObject({
      from: account.address,
      to: payee,
      value: AMOUNT.toString(),
    });

    // The Proof's payment is an x402 exact payload as it stands: hand it to the facilitator.
    const requirement = railRequirement(verified.claims.rail);
    const payment: PaymentPayload = {
      x402Version: 2,
      accepted: requirement,
      payload: verified.claims.payment,
    };
    expect(await facilitator.verify(payment, requirement)).toMatchObject({
      isValid: true,
      payer: account.address,
    });
    const { result: settled, ...moved } = await watchBalances(chain, account.address, payee, () =>
      facilitator.settle(payment, requirement),
    );
    expect(settled).toMatchObject({ success: true, network: rail.network, payer: account.address });
    expect(moved).toEqual({ paid: AMOUNT, received: AMOUNT });

    // Receiver: signs a Receipt for what settled. Wallet: checks it answers its Quote and Proof.
    const settlement = {
      network: rail.network,
      transaction: settled.transaction,
      amount: rail.amount,
      asset: rail.asset,
      payer: account.address,
    };
    const receipt = await signReceipt(
      {
        iss: RECEIVER_ID,
        sub: verified.walletId,
        jti: crypto.randomUUID(),
        iat: Math.floor(Date.now() / 1000),
        qh: quote.hash,
        ph: verified.hash,
        status: "settled",
        settlement,
      },
      receiver.key,
    );
    const accepted = await verifyReceipt(receipt, {
      descriptor: receiver.descriptor,
      quoteHash: walletQuote.hash,
      proofHash,
      walletId: wallet.id,
      settlement: {
        network: rail.network,
        asset: rail.asset,
        amount: rail.amount,
        payer: account.address,
      },
    });
    expect(accepted.claims).toMatchObject({ status: "settled", settlement });

    // The same Proof again: the receiver refuses the used Quote, and the token refuses the payment.
    await expect(
      verifyProof(proof, { quote, receiverId: RECEIVER_ID, replayGuard: guard }),
    ).rejects.toMatchObject({ name: "ProtocolError", code: "replayed-quote" });
    await expectV2ReplayRefused(chain, facilitator, payment, requirement);
  });
});
