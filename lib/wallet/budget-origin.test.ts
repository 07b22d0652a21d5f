import { describe, expect, it } from "vitest";
import { canHoldBudget, proxiedOrigin, proxyCaller } from "./budget-origin";

describe("proxy callers", () => {
  it("are keyed by the upstream server's origin, never a web origin", () => {
    const key = proxyCaller("https://mcp.example.com/mcp?x=1");
    expect(key).toBe("proxy:https://mcp.example.com");
    expect(key).not.toBe("https://mcp.example.com");
    expect(proxiedOrigin(key ?? "")).toBe("https://mcp.example.com");
    expect(proxiedOrigin("https://mcp.example.com")).toBeUndefined();
  });

  it("refuse upstreams that are not http(s)", () => {
    expect(proxyCaller("file:///etc/passwd")).toBeUndefined();
    expect(proxyCaller("not a url")).toBeUndefined();
  });
});

describe("canHoldBudget", () => {
  it("lets https and loopback http sites, and proxies to them, hold a budget", () => {
    expect(canHoldBudget("https://agent.example")).toBe(true);
    expect(canHoldBudget("http://127.0.0.1:4020")).toBe(true);
    expect(canHoldBudget("proxy:https://mcp.example.com")).toBe(true);
    expect(canHoldBudget("proxy:http://127.0.0.1:4020")).toBe(true);
  });

  it("refuses opaque, plain-http and malformed callers", () => {
    expect(canHoldBudget("null")).toBe(false);
    expect(canHoldBudget("http://agent.example")).toBe(false);
    expect(canHoldBudget("proxy:http://agent.example")).toBe(false);
    expect(canHoldBudget("proxy:https://mcp.example.com/path")).toBe(false);
  });
});
