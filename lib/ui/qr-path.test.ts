import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { qrPath } from "./qr-path";

describe("qrPath", () => {
  it("draws one square per dark module of the address's QR code, border included", () => {
    const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const { size, d } = qrPath(address);
    const { data } = encode(address, { border: 2 });
    expect(size).toBe(data.length);
    const dark = data.flat().filter(Boolean).length;
    expect(d.match(/M/g)?.length).toBe(dark);
    expect(d).not.toMatch(/M0 0h/);
    expect(d).toMatch(/^M2 2h1v1h-1z/);
  });
});
