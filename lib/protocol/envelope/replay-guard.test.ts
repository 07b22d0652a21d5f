import { describe, expect, it } from "vitest";
import type { ProtocolErrorCode } from "../errors";
import { claimQuoteOnce, MemoryQuoteReplayGuard } from "./replay-guard";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("MemoryQuoteReplayGuard", () => {
  it("accepts a Quote once per issuer and forgets it well after exp", async () => {
    let now = 1000;
    const guard = new MemoryQuoteReplayGuard(() => now);
    expect(guard.claim("https://a.example", "q", 1100)).toBe(true);
    expect(guard.claim("https://a.example", "q", 1100)).toBe(false);
    expect(guard.claim("https://b.example", "q", 1100)).toBe(true);
    now = 1161;
    expect(guard.claim("https://a.example", "q", 1100)).toBe(true);
  });

  it("claimQuoteOnce refuses the second time as replayed-quote", async () => {
    const guard = new MemoryQuoteReplayGuard(() => 0);
    const quote = { claims: { iss: "https://a.example", jti: "q-7", exp: 100 } };
    await claimQuoteOnce(guard, quote);
    await expect(claimQuoteOnce(guard, quote)).rejects.toThrow(refused("replayed-quote"));
    await expect(claimQuoteOnce(guard, quote)).rejects.toThrow('"q-7"');
  });
});
