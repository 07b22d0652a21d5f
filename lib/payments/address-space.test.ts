import { describe, expect, it } from "vitest";
import { addressSpaceOf, addressSpaceOfOrigin, mayReach } from "./address-space";

const spaceOf = (url: string) => addressSpaceOf(new URL(url).hostname);

describe("addressSpaceOf", () => {
  it.each([
    ["http://127.0.0.1", "local"],
    ["http://127.255.0.9", "local"],
    ["http://0.0.0.0", "local"],
    ["http://[::1]", "local"],
    ["http://[::]", "local"],
    ["http://localhost", "local"],
    ["http://LOCALHOST.", "local"],
    ["http://app.localhost", "local"],
    ["http://0x7f.1", "local"],
    ["https://[::ffff:127.0.0.1]", "local"],
    ["https://10.1.2.3", "private"],
    ["https://172.16.0.1", "private"],
    ["https://172.31.255.255", "private"],
    ["https://192.168.0.1", "private"],
    ["https://169.254.169.254", "private"],
    ["https://[fc00::1]", "private"],
    ["https://[fdff:ffff::1]", "private"],
    ["https://[fe80::1]", "private"],
    ["https://[febf::1]", "private"],
    ["https://[::ffff:192.168.1.1]", "private"],
    ["https://nas.local", "private"],
    ["https://db.corp.internal", "private"],
    ["https://172.32.0.1", "public"],
    ["https://172.15.0.1", "public"],
    ["https://11.0.0.1", "public"],
    ["https://[2001:db8::1]", "public"],
    ["https://[fec0::1]", "public"],
    ["https://api.example.com", "public"],
    ["https://local.example", "public"],
  ])("%s is %s", (url, space) => {
    expect(spaceOf(url)).toBe(space);
  });
});

describe("mayReach", () => {
  it("lets a page reach hosts no more private than its own", () => {
    expect(mayReach("public", "public")).toBe(true);
    expect(mayReach("public", "private")).toBe(false);
    expect(mayReach("public", "local")).toBe(false);
    expect(mayReach("private", "private")).toBe(true);
    expect(mayReach("private", "local")).toBe(false);
    expect(mayReach("local", "private")).toBe(true);
  });
});

describe("addressSpaceOfOrigin", () => {
  it("counts an unreadable origin as public", () => {
    expect(addressSpaceOfOrigin("http://127.0.0.1:4020")).toBe("local");
    expect(addressSpaceOfOrigin("null")).toBe("public");
  });

  it("reads a proxy caller's space from its upstream server", () => {
    expect(addressSpaceOfOrigin("proxy:http://127.0.0.1:4020")).toBe("local");
    expect(addressSpaceOfOrigin("proxy:https://mcp.example.com")).toBe("public");
  });
});
