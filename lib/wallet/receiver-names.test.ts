import { describe, expect, it } from "vitest";
import { isAllowed, isDenied, receiverName, receiverNames } from "./receiver-names";

const PAY_TO = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const names = receiverNames(
  { receiver: "https://api.example.com", claimedBy: "https://shop.example" },
  { network: "eip155:8453", payTo: PAY_TO },
);

describe("receiverName", () => {
  it("spells addresses and accounts in lower case, web addresses as their origin", () => {
    expect(receiverName(` ${PAY_TO} `)).toBe(PAY_TO.toLowerCase());
    expect(receiverName(`EIP155:8453:${PAY_TO}`)).toBe(`eip155:8453:${PAY_TO.toLowerCase()}`);
    expect(receiverName("HTTPS://API.Example.com:443/pay?x=1")).toBe("https://api.example.com");
    expect(receiverName("http://127.0.0.1:4021/")).toBe("http://127.0.0.1:4021");
  });

  it("keeps anything else as written, trimmed", () => {
    expect(receiverName("  acme ")).toBe("acme");
    expect(receiverName("https://")).toBe("https://");
    expect(receiverName("0x1234")).toBe("0x1234");
  });
});

describe("isDenied", () => {
  it("matches the receiver id, the account, the address on any network and the site it came from", () => {
    for (const entry of [
      "https://api.example.com/",
      `eip155:8453:${PAY_TO.toLowerCase()}`,
      PAY_TO,
      "https://shop.example",
    ]) {
      expect(isDenied([entry], names), entry).toBe(true);
    }
  });

  it("does not match another account, another network's account, or an empty list", () => {
    expect(isDenied([`eip155:1:${PAY_TO}`], names)).toBe(false);
    expect(isDenied(["0x0000000000000000000000000000000000000001"], names)).toBe(false);
    expect(isDenied([], names)).toBe(false);
  });
});

describe("isAllowed", () => {
  it("matches what is paid by any of its names", () => {
    expect(isAllowed(["https://API.example.com"], names)).toBe(true);
    expect(isAllowed([PAY_TO.toLowerCase()], names)).toBe(true);
    expect(isAllowed([`eip155:8453:${PAY_TO}`], names)).toBe(true);
  });

  it("never by the site an x402 price was served from: the page's word", () => {
    expect(isAllowed(["https://shop.example"], names)).toBe(false);
  });
});
