import { describe, expect, it } from "vitest";
import { RAIL, SOLANA_RAIL } from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { ProtocolError, type ProtocolErrorCode } from "../errors";
import { offeredRailSchema } from "./claims";
import { parseClaims } from "./parse-claims";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });
const read = (rail: unknown) => parseClaims(offeredRailSchema, rail, "Quote rail");

describe("offeredRailSchema", () => {
  it("reads a rail on a chain the wallet does not pay on by its shape: CAIP-2, any address spelling", () => {
    expect(read(SOLANA_RAIL)).toEqual(SOLANA_RAIL);
    const { extra: _, ...noExtra } = SOLANA_RAIL;
    expect(read(noExtra)).toEqual(noExtra);
    expect(read(RAIL)).toEqual(RAIL);
  });

  it.each(["solana", "base", "", "Solana:mainnet", "solana:", "eip155:8453:1", 8453])(
    "refuses the network %j, which is no CAIP-2 chain id",
    (network) => {
      expect(() => read({ ...SOLANA_RAIL, network })).toThrow(refused("invalid-claims"));
    },
  );

  it("keeps every EVM check on an eip155 rail", () => {
    expect(() => read({ ...RAIL, network: "eip155:0x2105" })).toThrow(
      new ProtocolError(
        "invalid-claims",
        'Quote rail claim "network" must be eip155:<chain id> (found "eip155:0x2105")',
      ),
    );
    for (const patch of [
      { asset: SOLANA_RAIL.asset },
      { payTo: SOLANA_RAIL.payTo },
      { extra: SOLANA_RAIL.extra },
      { extra: undefined },
    ]) {
      expect(() => read({ ...RAIL, ...patch })).toThrow(refused("invalid-claims"));
    }
  });

  // A receiver refuses an authorization with less than 6 s left: a shorter window is never payable.
  it.each([6, 0, 86_401])("refuses a rail whose maxTimeoutSeconds is %j", (maxTimeoutSeconds) => {
    expect(() => read({ ...RAIL, maxTimeoutSeconds })).toThrow(refused("invalid-claims"));
  });

  it("leaves the 6 s rule to EIP-3009: a rail on another chain is read, to be dropped", () => {
    expect(read({ ...SOLANA_RAIL, maxTimeoutSeconds: 5 })).toMatchObject({ maxTimeoutSeconds: 5 });
    expect(() => read({ ...SOLANA_RAIL, maxTimeoutSeconds: 0 })).toThrow(refused("invalid-claims"));
  });

  it("keeps the envelope's amount, decimals and address rules on every rail", () => {
    expect(() => read({ ...SOLANA_RAIL, amount: "5e3" })).toThrow(refused("amount-not-integer"));
    expect(() => read({ ...SOLANA_RAIL, amount: "-5000" })).toThrow(refused("negative-amount"));
    for (const patch of [{ decimals: undefined }, { asset: "" }, { payTo: 5 }]) {
      expect(() => read({ ...SOLANA_RAIL, ...patch })).toThrow(refused("invalid-claims"));
    }
  });
});
