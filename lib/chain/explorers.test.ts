import { describe, expect, it } from "vitest";
import { explorerUrl } from "./explorers";

describe("explorerUrl", () => {
  it("links a transaction on a network with a known explorer, and nothing else", () => {
    const hash = `0x${"12".repeat(32)}`;
    expect(explorerUrl("eip155:8453", hash)).toBe(`https://basescan.org/tx/${hash}`);
    expect(explorerUrl("eip155:31337", hash)).toBeUndefined();
    expect(explorerUrl("eip155:8453", "0x1234")).toBeUndefined();
  });
});
