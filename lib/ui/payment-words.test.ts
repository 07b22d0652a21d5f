import { describe, expect, it } from "vitest";
import {
  budgetWords,
  callerWords,
  paidForWords,
  paymentWords,
  perPeriodWords,
  receiverWords,
  siteWords,
  whatWords,
} from "./payment-words";

describe("payment words", () => {
  it("names a Stipendex receiver by its site and an x402 account by its short address", () => {
    expect(receiverWords("https://api.example.com/")).toBe("api.example.com");
    expect(receiverWords("http://127.0.0.1:4100")).toBe("127.0.0.1:4100");
    expect(receiverWords("eip155:84532:0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe(
      "0x7099…79C8",
    );
    expect(receiverWords("not a url")).toBe("not a url");
    expect(siteWords("http://127.0.0.1:4100")).toBe("127.0.0.1:4100");
    expect(siteWords("")).toBe("");
  });

  it("names a receiver by its descriptor's name when the payment has it, with the site that name is a claim of", () => {
    expect(receiverWords("https://api.example.com/", "Example search")).toBe(
      "Example search (api.example.com)",
    );
    expect(receiverWords("https://pay.evil.example", "api.openai.com")).toBe(
      "api.openai.com (pay.evil.example)",
    );
    expect(receiverWords("https://api.example.com", "api.example.com")).toBe("api.example.com");
    expect(
      paymentWords({
        origin: "https://agent.example",
        receiver: "https://a.example",
        receiverName: "A search",
        what: "search",
      }),
    ).toEqual({ who: "A search (a.example)", what: "search" });
  });

  it("says a desktop app's request by the server its proxy forwards to", () => {
    expect(siteWords("proxy:https://mcp.example")).toBe(
      "desktop app via proxy (https://mcp.example)",
    );
    expect(callerWords("proxy:https://mcp.example")).toBe(
      "desktop app via proxy (https://mcp.example)",
    );
    expect(callerWords("https://agent.example")).toBe("https://agent.example");
  });

  it("says an HTTP call by its path and a tool by its name", () => {
    expect(whatWords("http://127.0.0.1:4100/api/search?q=cats")).toBe("/api/search?q=cats");
    expect(whatWords("http://h.example/api/search?q=model%20context")).toBe(
      "/api/search?q=model context",
    );
    expect(whatWords("http://h.example/a?q=%E0%A4%A")).toBe("/a?q=%E0%A4%A");
    expect(whatWords("search_docs")).toBe("search_docs");
    expect(
      paymentWords({
        origin: "https://agent.example",
        receiver: "https://a.example",
        what: "https://a.example/x",
      }),
    ).toEqual({ who: "a.example", what: "/x" });
  });

  // The history said a seed-004 tool call only by its endpoint's path ("/mcp").
  it("says an HTTP-priced tool call by the tool its caller named, marked as the caller's word", () => {
    const call = { what: "https://a.example/mcp", describedTool: "verify_agent" };
    expect(paidForWords({ ...call, origin: "https://agent.example" })).toBe(
      "verify_agent (as the site said), /mcp",
    );
    expect(paidForWords({ ...call, origin: "proxy:https://a.example/mcp" })).toBe(
      "verify_agent (as the desktop app said), /mcp",
    );
  });
});

describe("budgetWords and perPeriodWords", () => {
  // The popup said "Budget: 1 USD per none" for a budget that never renews.
  it("say each period in words, a budget that never renews included", () => {
    expect(budgetWords("1 USD", "day")).toBe("Budget: 1 USD per day");
    expect(budgetWords("1 USD", "month")).toBe("Budget: 1 USD per month");
    expect(budgetWords("1 USD", "none")).toBe("Budget: 1 USD in all, never renewed");
    expect(perPeriodWords("USD", "week")).toBe("USD per week");
    expect(perPeriodWords("USD", "none")).toBe("USD in all");
  });
});
