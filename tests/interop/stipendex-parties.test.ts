import { parsePaymentRequirements } from "@x402/core/schemas";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devAccounts } from "../../demo/chain/dev-accounts";
import { railSchema } from "../../lib/protocol/envelope/claims";
import { objectHash } from "../../lib/protocol/envelope/object-hash";
import { verifyProof } from "../../lib/protocol/envelope/proof";
import { signQuote, verifyQuote } from "../../lib/protocol/envelope/quote";
import { BASE_SEPOLIA_USDC } from "./requirements";
import {
  AGENT_ORIGIN,
  exactRail,
  makeReceiver,
  makeWallet,
  payQuote,
  quoteInput,
  RECEIVER_ID,
  railRequirement,
} from "./stipendex-parties";

const accounts = devAccounts(1);
const payTo = accounts.payee.address;
const rail = exactRail(
  { address: BASE_SEPOLIA_USDC, name: "USDC", version: "2" },
  5_000n,
  payTo,
  84532,
);

describe("exactRail", () => {
  it("is a valid x402-exact rail on eip155:<chain id> with the token's domain", () => {
    expect(railSchema.parse(rail)).toEqual(rail);
    expect(rail).toMatchObject({
      network: "eip155:84532",
      amount: "5000",
      extra: { name: "USDC" },
    });
  });
});

describe("makeReceiver + quoteInput", () => {
  it("signs a Quote that verifies under the receiver's checked descriptor, total stated from the rail", async () => {
    const receiver = await makeReceiver([rail]);
    expect(receiver.descriptor).toMatchObject({ id: RECEIVER_ID, rails: [{ payTo }] });
    const now = Math.floor(Date.now() / 1000);
    const quote = await verifyQuote(await signQuote(quoteInput(rail, now), receiver.key), {
      descriptor: receiver.descriptor,
    });
    expect(quote.claims).toMatchObject({
      iss: RECEIVER_ID,
      iat: now,
      exp: now + 120,
      profile: "L2",
      total: { amount: "0.005", currency: "USD" },
    });
  });
});

describe("makeWallet + payQuote", () => {
  it("produces an L2 Proof the receiver accepts, paying the rail from the account", async () => {
    const receiver = await makeReceiver([rail]);
    const wallet = await makeWallet();
    expect(wallet.id).toBe(`urn:ietf:params:oauth:jwk-thumbprint:sha-256:${wallet.kid}`);
    const payer = accounts.payers[0];
    if (!payer) throw new Error("no dev payer");
    const account = privateKeyToAccount(payer.privateKey);
    const now = Math.floor(Date.now() / 1000);
    const quote = await verifyQuote(await signQuote(quoteInput(rail, now), receiver.key), {
      descriptor: receiver.descriptor,
    });

    const paid = await payQuote(quote, wallet, account, now);
    expect(paid.proofHash).toBe(await objectHash(paid.proof));
    const verified = await verifyProof(paid.proof, { quote, receiverId: RECEIVER_ID });
    expect(verified.confirmation?.jws).toBe(paid.confirmation);
    expect(verified.confirmation?.claims.origin).toBe(AGENT_ORIGIN);
    expect(verified.claims.payment.authorization).toMatchObject({
      from: account.address,
      to: payTo,
      value: "5000",
      validBefore: String(now + rail.maxTimeoutSeconds),
    });
  });
});

describe("railRequirement", () => {
  it("is the x402 v2 requirement @x402/core accepts, carrying the rail's terms", () => {
    const requirement = railRequirement(rail);
    expect(parsePaymentRequirements(requirement).success).toBe(true);
    expect(requirement).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      asset: BASE_SEPOLIA_USDC,
      amount: "5000",
      payTo,
      maxTimeoutSeconds: 60,
      extra: { name: "USDC", version: "2" },
    });
  });
});
