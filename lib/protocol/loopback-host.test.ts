import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./loopback-host";

describe("isLoopbackHost", () => {
  it("is 127.0.0.0/8, localhost and its subdomains (RFC 6761) and [::1] only", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "app.localhost",
      "a.b.localhost",
      "[::1]",
    ]) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of [
      "10.0.0.1",
      "localhost.example",
      "notlocalhost",
      "app.localhost.example",
      "[::2]",
      "0.0.0.0",
    ]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
