import { describe, expect, it } from "vitest";
import { chromeGetMessage, loadLocaleMessages } from "./locale-messages";

describe("the English messages in tests", () => {
  it("reads locales/en.yml with nested keys joined by underscores", async () => {
    const messages = await loadLocaleMessages("locales/en.yml");
    expect(messages.onboarding_welcome_title).toBe("Welcome to Stipendex Wallet");
  });

  it("fills $1 and keeps $$ as a dollar", () => {
    expect(chromeGetMessage({ k: "Pay $1 to $2, $$ sign" }, "k", ["5", "Bob"])).toBe(
      "Pay 5 to Bob, $ sign",
    );
    expect(chromeGetMessage({}, "missing")).toBe("");
  });
});
