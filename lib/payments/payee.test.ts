import { describe, expect, it } from "vitest";
import { USDC_AS_USD } from "../../tests/unit-support/payments/offers";
import {
  readContext,
  v1Body,
  v1TwoOptionsBody,
} from "../../tests/unit-support/protocol/x402/test-fixtures";
import { readPaymentRequired } from "../protocol/x402/payment-required";
import { chooseOption } from "./engine-parts";
import { bindPayee, payeeAccount } from "./payee";

describe("bindPayee", () => {
  it("binds an x402 price to the account paid, keeping the origin it came from", () => {
    const offer = readPaymentRequired(v1Body, "http", readContext());
    const option = offer.options[0] ?? expect.unreachable("no option");
    expect(bindPayee(offer, option)).toMatchObject({
      receiver: payeeAccount(option),
      claimedBy: "http://127.0.0.1:4021",
    });
  });

  it("shows an x402 v1 price with the description of the option paid, not of accepts[0]", () => {
    const offer = readPaymentRequired(v1TwoOptionsBody, "http", readContext());
    const chosen = chooseOption(USDC_AS_USD, offer);
    expect(chosen.network).toBe("eip155:84532");
    expect(bindPayee(offer, chosen).description).toBe("Full report, 5000 pages");
  });
});
