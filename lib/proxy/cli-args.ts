import { ProxyError } from "./errors";

export type ProxyCommand =
  /** Forward a desktop host's MCP session (stdio) to `upstream`, paying through the wallet. */
  | { mode: "proxy"; upstream: URL; browserDirs: string[] }
  /** Write the native host manifests (into `browserDirs` only, when any are named). */
  | { mode: "install"; browserDirs: string[]; chromeExtensionId?: string }
  | { mode: "uninstall"; browserDirs: string[] }
  /** Started by the browser: relay between proxies and the wallet. Browsers add arguments of theirs. */
  | { mode: "native-host" }
  | { mode: "help" };

export const USAGE = `Usage:
  stipendex-proxy <mcp-server-url>   Serve MCP on stdio for a desktop host, forwarding to the
                                     server and paying its tools through the Stipendex wallet
  stipendex-proxy install            Let the wallet in Chromium, Chrome and Firefox reach
                                     desktop apps (writes native messaging host manifests)
  stipendex-proxy uninstall          Remove those manifests

Options:
  --browser-dir <dir>           A Chromium-family user data dir (--user-data-dir) to install
                                into, or to look in; repeatable. Without it: the browsers found
                                in your home directory.
  --chrome-extension-id <id>    The wallet's id in Chrome when it is not the unpacked build's
                                (a Chrome Web Store install)`;

const EXTENSION_ID = /^[a-p]{32}$/;

/** Reads the command line (without `node` and the script). */
export function parseCommand(args: readonly string[]): ProxyCommand {
  const [first, ...rest] = args;
  if (first === "native-host") return { mode: "native-host" };
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    return { mode: "help" };
  }
  const browserDirs: string[] = [];
  let chromeExtensionId: string | undefined;
  const positional: string[] = [];
  const words = first === "install" || first === "uninstall" ? rest : args;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "--browser-dir" || word === "--chrome-extension-id") {
      const value = words[++i];
      if (value === undefined) throw usage(`${word} needs a value`);
      if (word === "--browser-dir") browserDirs.push(value);
      else if (EXTENSION_ID.test(value)) chromeExtensionId = value;
      else throw usage(`${value} is not a Chrome extension id (32 letters a to p)`);
    } else if (word.startsWith("--")) {
      throw usage(`Unknown option ${word}`);
    } else {
      positional.push(word);
    }
  }
  if (first === "install" || first === "uninstall") {
    if (positional.length > 0) throw usage(`${first} takes no ${positional[0]}`);
    if (first === "uninstall") return { mode: "uninstall", browserDirs };
    return {
      mode: "install",
      browserDirs,
      ...(chromeExtensionId === undefined ? {} : { chromeExtensionId }),
    };
  }
  if (chromeExtensionId !== undefined) throw usage("--chrome-extension-id is for install");
  const [server, ...extra] = positional;
  if (server === undefined || extra.length > 0) {
    throw usage("Name exactly one MCP server URL");
  }
  let upstream: URL;
  try {
    upstream = new URL(server);
  } catch {
    throw usage(
      `${server} is not a URL (expected the MCP server's, e.g. https://mcp.example.com/mcp)`,
    );
  }
  if (upstream.protocol !== "https:" && upstream.protocol !== "http:") {
    throw usage(`${server} is not an http(s) URL: stipendex-proxy forwards to Streamable HTTP`);
  }
  return { mode: "proxy", upstream, browserDirs };
}

function usage(message: string): ProxyError {
  return new ProxyError("usage", `${message}\n\n${USAGE}`);
}
