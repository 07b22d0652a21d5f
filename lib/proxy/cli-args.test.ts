import { describe, expect, it } from "vitest";
import { parseCommand } from "./cli-args";

describe("parseCommand", () => {
  it("reads the proxy mode from one MCP server URL, with browser dirs to look in", () => {
    const command = parseCommand(["--browser-dir", "/p", "http://127.0.0.1:9/mcp"]);
    expect(command).toMatchObject({ mode: "proxy", browserDirs: ["/p"] });
    expect(command.mode === "proxy" && command.upstream.href).toBe("http://127.0.0.1:9/mcp");
  });

  it("reads install and uninstall with their options", () => {
    expect(parseCommand(["install"])).toEqual({ mode: "install", browserDirs: [] });
    expect(
      parseCommand([
        "install",
        "--browser-dir",
        "/a",
        "--chrome-extension-id",
        "abcdefghijklmnopabcdefghijklmnop",
      ]),
    ).toEqual({
      mode: "install",
      browserDirs: ["/a"],
      chromeExtensionId: "abcdefghijklmnopabcdefghijklmnop",
    });
    expect(parseCommand(["uninstall", "--browser-dir", "/a"])).toEqual({
      mode: "uninstall",
      browserDirs: ["/a"],
    });
  });

  it("takes the native-host mode whatever the browser adds after it", () => {
    expect(parseCommand(["native-host", "chrome-extension://abc/"])).toEqual({
      mode: "native-host",
    });
    expect(parseCommand(["native-host", "/x/host.json", "wallet@stipendex.dev"])).toEqual({
      mode: "native-host",
    });
  });

  it("shows help when asked or given nothing", () => {
    expect(parseCommand([])).toEqual({ mode: "help" });
    expect(parseCommand(["--help"])).toEqual({ mode: "help" });
  });

  it("says what is wrong with a command line it cannot use", () => {
    expect(() => parseCommand(["ftp://x/mcp"])).toThrow(/not an http\(s\) URL/);
    expect(() => parseCommand(["mcp.example.com"])).toThrow(/not a URL/);
    expect(() => parseCommand(["http://a/mcp", "http://b/mcp"])).toThrow(/exactly one/);
    expect(() => parseCommand(["install", "--browser-dir"])).toThrow(/needs a value/);
    expect(() => parseCommand(["install", "--chrome-extension-id", "xyz"])).toThrow(
      /not a Chrome extension id/,
    );
    expect(() => parseCommand(["--verbose", "http://a/mcp"])).toThrow(/Unknown option/);
  });
});
