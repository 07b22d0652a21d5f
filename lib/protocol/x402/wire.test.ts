import { encodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import {
  assertInputSize,
  decodeBase64Json,
  encodeBase64Json,
  MAX_INPUT_BYTES,
  parseJsonText,
} from "./wire";

describe("encodeBase64Json / decodeBase64Json", () => {
  it("writes exactly what @x402/core writes, including non-ASCII text", () => {
    const value = {
      x402Version: 2,
      resource: { url: "https://a.example/ü", description: "météo ☀" },
      accepts: [],
    };
    expect(encodeBase64Json(value)).toBe(encodePaymentRequiredHeader(value));
    expect(decodeBase64Json(encodeBase64Json(value), "h")).toEqual(value);
  });

  it.each([
    ["eyJhIjoxfQ-_", "header-not-base64"],
    ["not base64!", "header-not-base64"],
    ["eyJhIjoxfQ===", "header-not-base64"],
    ["A", "header-not-base64"],
    ["/w==", "header-not-base64"],
    [btoa("hello"), "not-json"],
  ])("refuses %j with %s", (header, code) => {
    expect(() => decodeBase64Json(header, "PAYMENT-REQUIRED header")).toThrow(
      expect.objectContaining({
        code,
        message: expect.stringContaining("PAYMENT-REQUIRED header"),
      }),
    );
  });
});

describe("parseJsonText / assertInputSize", () => {
  it("parses JSON within the cap", () => {
    expect(parseJsonText('{"a":[1]}', "body")).toEqual({ a: [1] });
    expect(() => assertInputSize("x".repeat(MAX_INPUT_BYTES), "body")).not.toThrow();
  });

  it("refuses over 64 KiB counted in UTF-8 bytes, before parsing", () => {
    expect(() => parseJsonText(`"${"x".repeat(MAX_INPUT_BYTES)}"`, "body")).toThrow(
      expect.objectContaining({ code: "body-too-large" }),
    );
    expect(() => assertInputSize("é".repeat(MAX_INPUT_BYTES / 2 + 1), "body")).toThrow(
      /65538 bytes/,
    );
  });

  it("names bad JSON", () => {
    expect(() => parseJsonText("{nope", "402 body")).toThrow(
      expect.objectContaining({ code: "not-json", message: expect.stringContaining("402 body") }),
    );
  });
});
