import { bytesToHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ANVIL_MNEMONIC } from "./anvil";
import { ANVIL_DEV_KEYS, devAccounts, MAX_PAYERS } from "./dev-accounts";
import { TooManyPayersError } from "./errors";

describe("ANVIL_DEV_KEYS", () => {
  it("are the first ten keys of anvil's mnemonic", () => {
    const derived = ANVIL_DEV_KEYS.map((_, addressIndex) => {
      const key = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex }).getHdKey().privateKey;
      return key ? bytesToHex(key) : undefined;
    });
    expect(derived).toEqual(ANVIL_DEV_KEYS);
  });
});

describe("devAccounts", () => {
  it("gives distinct roles with addresses matching their keys", () => {
    const accounts = devAccounts(2);
    expect(accounts.deployer.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(accounts.facilitator.address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(accounts.payee.address).toBe("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    expect(accounts.payers.map((p) => p.address)).toEqual([
      "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
      "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    ]);
    expect(accounts.payers[0]?.privateKey).toBe(ANVIL_DEV_KEYS[3]);
  });

  it("defaults to three payers and allows all the rest", () => {
    expect(devAccounts().payers).toHaveLength(3);
    expect(devAccounts(MAX_PAYERS).payers).toHaveLength(7);
  });

  it("refuses more payers than there are keys", () => {
    expect(() => devAccounts(MAX_PAYERS + 1)).toThrow(TooManyPayersError);
    expect(() => devAccounts(MAX_PAYERS + 1)).toThrow(/asked for 8 payer accounts but only 7/);
  });
});
