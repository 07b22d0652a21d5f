import { describe, expect, it } from "vitest";
import { readHeaders } from "./xhr-settle";

describe("readHeaders", () => {
  it("reads getAllResponseHeaders() text, values with colons and repeated names included", () => {
    const headers = readHeaders(
      "content-type: application/json\r\npayment-required: eyJ4:NDAy\r\nvary: origin\r\nvary: accept\r\n",
    );
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(headers.get("payment-required")).toBe("eyJ4:NDAy");
    expect(headers.get("vary")).toBe("origin, accept");
    expect([...readHeaders("")]).toEqual([]);
  });
});
