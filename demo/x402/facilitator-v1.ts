import express, { type Express } from "express";
import { settle, verify } from "x402/facilitator";
import type { PaymentPayload, PaymentRequirements } from "x402/types";
import { revertReason } from "../chain";
import type { SettlementClient } from "../receiver/settle";

type V1Signer = Parameters<typeof settle>[0];

interface FacilitatorRequest {
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
}

/**
 * The official v1 facilitator (`x402/facilitator` verify/settle) as the small HTTP app that
 * x402-express insists on talking to (`/verify`, `/settle`, `/supported`).
 */
export function v1FacilitatorApp(client: SettlementClient): Express {
  // x402 1.2 types its signer against its own viem copy; the runtime object is the same client.
  const signer = client as unknown as V1Signer;
  const app = express();
  app.use(express.json());
  app.post("/verify", async (req, res) => {
    const { paymentPayload, paymentRequirements } = req.body as FacilitatorRequest;
    res.json(await verify(signer, paymentPayload, paymentRequirements));
  });
  app.post("/settle", async (req, res) => {
    const { paymentPayload, paymentRequirements } = req.body as FacilitatorRequest;
    try {
      res.json(await settle(signer, paymentPayload, paymentRequirements));
    } catch (error) {
      // v1 settle sends without simulating: a revert throws; answer it as a failed settlement.
      res.json({
        success: false,
        errorReason: revertReason(error) ?? "unexpected_settle_error",
        transaction: "",
        network: paymentPayload.network,
        payer:
          paymentPayload.payload && "authorization" in paymentPayload.payload
            ? paymentPayload.payload.authorization.from
            : undefined,
      });
    }
  });
  app.get("/supported", (_req, res) => {
    res.json({ kinds: [{ x402Version: 1, scheme: "exact", network: "base-sepolia" }] });
  });
  return app;
}
