import { describe, expect, it } from "vitest";
import { ProviderRpcError } from "../messages";
import { errorText } from "./error-text";

describe("errorText", () => {
  it("uses an error's message, and the text of anything else", () => {
    expect(errorText(new ProviderRpcError({ code: 4900, message: "wallet is locked" }))).toBe(
      "wallet is locked",
    );
    expect(errorText("plain")).toBe("plain");
    expect(errorText(42)).toBe("42");
  });
});
