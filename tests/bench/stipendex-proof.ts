import { privateKeyToAccount } from "viem/accounts";
import { devAccounts } from "../../demo/chain/dev-accounts";
import { signQuote, verifyQuote } from "../../lib/protocol/envelope/quote";
import { BASE_SEPOLIA_USDC } from "../interop/requirements";
import {
  exactRail,
  makeReceiver,
  makeWallet,
  payQuote,
  quoteInput,
} from "../interop/stipendex-parties";
import type { BenchSuite } from "./bench";

export const STIPENDEX_PROOF = "Stipendex Proof: Confirmation + EIP-3009 + Proof + hashes";

/** The wallet's whole signing work for one approved Quote; the Quote is verified beforehand. */
export const stipendexProofSuite: BenchSuite = {
  title: "Build one Stipendex Proof (L2, Ed25519 wallet key, embedded Confirmation)",
  benches: [
    {
      name: STIPENDEX_PROOF,
      async prepare() {
        const accounts = devAccounts(1);
        const key = accounts.payers[0]?.privateKey;
        if (!key) throw new Error("anvil's dev keys ran out");
        const account = privateKeyToAccount(key);
        const rail = exactRail(
          { address: BASE_SEPOLIA_USDC, name: "USDC", version: "2" },
          5_000n,
          accounts.payee.address,
          84532,
        );
        const receiver = await makeReceiver([rail]);
        const wallet = await makeWallet();
        const now = Math.floor(Date.now() / 1000);
        const quote = await verifyQuote(await signQuote(quoteInput(rail, now), receiver.key), {
          descriptor: receiver.descriptor,
        });
        return () => payQuote(quote, wallet, account, Math.floor(Date.now() / 1000));
      },
    },
  ],
  ratios: [],
};
