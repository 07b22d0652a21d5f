import { describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { APPROVED_PAYEES_ITEM, PayeeApprovals } from "./approved-payees";

const APP = "proxy:https://mcp.example";
const ACCOUNT = "eip155:8453:0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

describe("PayeeApprovals", () => {
  it("knows an account approved for a desktop app, in any letter case, and only for that app", async () => {
    const store = memoryStore();
    const payees = new PayeeApprovals(store);
    expect(await payees.approved(APP, ACCOUNT)).toBe(false);
    await payees.approve(APP, ACCOUNT);
    expect(await payees.approved(APP, ACCOUNT.toUpperCase())).toBe(true);
    expect(await payees.approved("proxy:https://other.example", ACCOUNT)).toBe(false);
    // Kept in the store: a restarted worker reads it back.
    expect(await new PayeeApprovals(store).approved(APP, ACCOUNT)).toBe(true);
  });

  it("keeps two approvals made at once", async () => {
    const payees = new PayeeApprovals(memoryStore());
    await Promise.all([payees.approve(APP, ACCOUNT), payees.approve(APP, "eip155:1:0xabc")]);
    expect(await payees.approved(APP, ACCOUNT)).toBe(true);
    expect(await payees.approved(APP, "eip155:1:0xabc")).toBe(true);
  });

  it("keeps the latest 64 accounts per app, and the latest 64 apps", async () => {
    const store = memoryStore();
    const payees = new PayeeApprovals(store);
    for (let i = 0; i <= 64; i++) await payees.approve(APP, `eip155:1:0x${i}`);
    expect(await payees.approved(APP, "eip155:1:0x0")).toBe(false);
    expect(await payees.approved(APP, "eip155:1:0x64")).toBe(true);
    for (let i = 0; i < 64; i++) await payees.approve(`proxy:https://m${i}.example`, ACCOUNT);
    expect(await payees.approved(APP, "eip155:1:0x64")).toBe(false);
    expect(await payees.approved("proxy:https://m63.example", ACCOUNT)).toBe(true);
  });

  it("reads a stored value of another shape as nothing approved", () => {
    expect(APPROVED_PAYEES_ITEM.read([ACCOUNT])).toBeUndefined();
    expect(APPROVED_PAYEES_ITEM.read({ [APP]: ACCOUNT, other: [ACCOUNT, 1] })).toEqual({});
    expect(APPROVED_PAYEES_ITEM.read({ [APP]: [ACCOUNT] })).toEqual({ [APP]: [ACCOUNT] });
  });
});
