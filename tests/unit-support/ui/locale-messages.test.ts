import { describe, expect, it } from "vitest";
import { chromeGetMessage, loadLocaleMessages } from "./locale-messages";

describe("the English messages in tests", () => {
  it("reads locales/en.yml with nested keys joined by underscores", async () => {
    const messages = await loadLocaleMessages("locales/en.yml");
    expect(messages.onboarding_welcome_title).toBe("Welcome to Stipendex Wallet");
  });

  it("has no message Chrome refuses to load: `$1$2` reads as an undefined placeholder `$1$`", async () => {
    const messages = await loadLocaleMessages("locales/en.yml");
    const refused = Object.entries(messages).filter(([, text]) => /\$\w+\$/.test(text));
    expect(refused).toEqual([]);
  });

  it("fills $1 and keeps $$ as a dollar", () => {
    expect(chromeGetMessage({ k: "Pay $1 to $2, $$ sign" }, "k", ["5", "Bob"])).toBe(
      "Pay 5 to Bob, $ sign",
    );
    expect(chromeGetMessage({}, "missing")).toBe("");
  });
});
