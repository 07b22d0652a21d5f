import { describe, expect, it } from "vitest";
import { errorText } from "./errors";
import { ProviderRpcError } from "./messages";

describe("errorText", () => {
  it("uses an error's message, and the text of anything else", () => {
    expect(errorText(new ProviderRpcError({ code: 4900, message: "wallet is locked" }))).toBe(
      "wallet is locked",
    );
    expect(errorText("plain")).toBe("plain");
    expect(errorText(42)).toBe("42");
  });
});
