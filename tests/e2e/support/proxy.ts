import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StipendexError } from "../../../lib/errors";
import { launchChromium } from "./chromium";
import type { PaymentBrowser } from "./payments";
import { chromiumTab } from "./tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./wallet-chromium";
import { setUpOrClose } from "./wallet-setup";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const PROXY_BIN = join(REPO, "dist", "stipendex-proxy.mjs");

export class MissingProxyBuildError extends StipendexError {
  override name = "MissingProxyBuildError";

  constructor() {
    super(
      "missing-build",
      `${PROXY_BIN} does not exist. Run \`npm run build:proxy\` (npm ci runs it too).`,
    );
  }
}

/**
 * The places one test's proxy setup uses, all fresh temporary directories:
 * a browser profile (its NativeMessagingHosts/ gets the manifest), the
 * channel directory, and a home directory (where the proxy looks for
 * manifests of the browsers it knows, to say what to do when none listens).
 */
export interface ProxyPlaces {
  profile: string;
  channel: string;
  home: string;
  /** The environment of the browser (its native host inherits it) and of the proxy. */
  env: Record<string, string>;
  remove(): void;
}

export function proxyPlaces(): ProxyPlaces {
  if (!existsSync(PROXY_BIN)) throw new MissingProxyBuildError();
  const root = mkdtempSync(join(tmpdir(), "stipendex-proxy-e2e-"));
  const profile = join(root, "profile");
  const home = join(root, "home");
  const channel = join(root, "channel");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    STIPENDEX_CHANNEL_DIR: channel,
    // npx keeps using the machine's npm cache with HOME moved.
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
  });
  return {
    profile,
    channel,
    home,
    env,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs `npx stipendex-proxy <args>` in the repository, as a person would; resolves with its stdout. */
export async function runProxyCommand(places: ProxyPlaces, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("npx", ["stipendex-proxy", ...args], {
    cwd: REPO,
    env: places.env,
  });
  return stdout;
}

/** A desktop MCP host's session: the official SDK client, launching `npx stipendex-proxy <upstream>`. */
export interface DesktopHost {
  client: Client;
  /** What the proxy wrote to stderr so far (for failure messages). */
  stderr(): string;
  close(): Promise<void>;
}

export async function connectDesktopHost(
  places: ProxyPlaces,
  upstream: string,
  capabilities: ConstructorParameters<typeof Client>[1] = {},
): Promise<DesktopHost> {
  const transport = new StdioClientTransport({
    command: "npx",
    args: ["stipendex-proxy", upstream],
    cwd: REPO,
    env: places.env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "e2e-desktop-host", version: "1.0.0" }, capabilities);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The Payments rig's browser, with the wallet's history page to read what it shows. */
export interface ProxyWalletBrowser extends PaymentBrowser {
  /** The text of the history tab's payment lines, once `expected` shows among them. */
  historyLines(expected: string): Promise<string[]>;
}

/**
 * Chromium in the profile `places.profile` (where `install --browser-dir`
 * put the manifest) with the places' environment, so the native host the
 * wallet starts listens on the places' channel; the wallet set up with
 * `payerKey`.
 */
export async function openProxyWallet(
  places: ProxyPlaces,
  payerKey: string,
): Promise<ProxyWalletBrowser> {
  const session = await launchChromium({
    withWallet: true,
    userDataDir: places.profile,
    env: places.env,
  });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    let opened = 0;
    session.context.on("page", (page) => {
      if (page.url().endsWith("/confirm.html")) opened++;
    });
    return {
      agent: chromiumTab(walletPage),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => chromiumTab(await nextConfirmWindow(session.context)),
      confirmWindowsOpened: () => opened,
      historyLines: async (expected) => {
        const options = await session.context.newPage();
        try {
          await options.goto(session.extensionUrl("options.html"));
          await options.getByRole("tab", { name: "History" }).click();
          const lines = options.getByRole("list", { name: "Payments" }).getByRole("listitem");
          await lines.getByText(expected).first().waitFor({ timeout: 10_000 });
          return await lines.allInnerTexts();
        } finally {
          await options.close();
        }
      },
      close: () => session.close(),
    };
  });
}
