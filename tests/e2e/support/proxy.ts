import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { StipendexError } from "../../../lib/errors";
import type { SpendSummary } from "../../../lib/messages";
import { testCurrency } from "../../../lib/wallet/test-money";
import { assertSettled, assertWithdrawn, demoRig, type PaymentBrowser, snapshot } from "./payments";
import { grantOriginBudget } from "./wallet-setup";

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
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`stipendex-proxy did not start: ${String(error)}; its stderr: ${stderr}`);
  });
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The Payments rig's browser, with the wallet's history page to read what it shows. */
export interface ProxyWalletBrowser extends PaymentBrowser {
  /** The text of the history tab's payment lines, once `expected` shows among them. */
  historyLines(expected: string): Promise<string[]>;
}

/** How soon the proxy must answer when the wallet cannot pay: seconds, never a hang. */
const ANSWER_WITHIN_MS = 10_000;

type CallResult = { isError?: boolean; content?: { type: string; text?: string }[] };

export function assertPaidResult(result: unknown, what: string): void {
  const { isError, content } = result as CallResult;
  assert.notEqual(isError, true, `${what}: ${JSON.stringify(result)}`);
  assert.ok(
    content?.some((c) => c.type === "text" && c.text),
    `${what}: ${JSON.stringify(result)}`,
  );
}

/** A paid call the wallet cannot pay: an MCP error -32402 whose message says what to do, within seconds. */
export async function assertRefusedSaying(host: DesktopHost, pattern: RegExp): Promise<void> {
  const started = Date.now();
  await assert.rejects(
    host.client.callTool({ name: "web_search", arguments: { query: "desktop" } }),
    (error: unknown) => {
      assert.ok(error instanceof McpError, String(error));
      assert.equal(error.code, -32402, error.message);
      assert.match(error.message, pattern, host.stderr());
      return true;
    },
  );
  assert.ok(Date.now() - started < ANSWER_WITHIN_MS, `answered in ${Date.now() - started} ms`);
}

/**
 * The paid checks both browsers run: `open` installs the link for its
 * browser in `places` and starts that browser with the wallet set up.
 */
export function describeProxyPayments(
  browserName: string,
  open: (places: ProxyPlaces, payerKey: string) => Promise<ProxyWalletBrowser>,
): void {
  describe(`stipendex-proxy through the wallet in ${browserName}`, { timeout: 240_000 }, () => {
    const places = proxyPlaces();
    const get = demoRig(browserName, 240_000, (_demo, payerKey) => open(places, payerKey));
    const hosts: DesktopHost[] = [];
    const connect = async (upstream: string, capabilities = {}) => {
      const host = await connectDesktopHost(places, upstream, capabilities);
      hosts.push(host);
      return host;
    };
    after(async () => {
      await Promise.allSettled(hosts.map((host) => host.close()));
      places.remove();
    });

    it("pays a tool approved in the window, shown as the desktop app via proxy, receipt in history", async () => {
      const { rig, browser } = get();
      const server = rig.demo.urls.mcpSse;
      const caller = `proxy:${new URL(server).origin}`;
      const host = await connect(server);
      // tools/list: the wallet learns the announced price, and shows it beside the Quote.
      await host.client.listTools();
      const before = await snapshot(rig, caller);
      const [result] = await Promise.all([
        host.client.callTool({ name: "web_search", arguments: { query: "desktop" } }),
        rig.nextConfirmWindow().then(async (window) => {
          assert.equal(
            await window.text("origin"),
            `desktop app via proxy (${new URL(server).origin})`,
          );
          assert.match((await window.text("price-hint")) ?? "", /announced \u2068?0\.005 USD/);
          await window.click("Approve");
        }),
      ]);
      assertPaidResult(result, "web_search");
      await assertSettled(rig, caller, before, [5_000n]);
      const lines = await browser.historyLines("desktop app via proxy");
      assert.ok(
        lines.some((line) => line.includes(`desktop app via proxy (${new URL(server).origin})`)),
        lines.join("\n"),
      );
    });

    it("pays seed 004's verify_agent (an HTTP 402 on its POST) approved in the window", async () => {
      const { rig } = get();
      const server = rig.demo.urls.mcp402;
      const caller = `proxy:${new URL(server).origin}`;
      const host = await connect(server);
      const before = await snapshot(rig, caller);
      const [result] = await Promise.all([
        host.client.callTool({ name: "verify_agent", arguments: { agent: "desktop" } }),
        rig.nextConfirmWindow().then(async (window) => {
          assert.equal(
            await window.text("origin"),
            `desktop app via proxy (${new URL(server).origin})`,
          );
          // The 402 prices the address: the window names the call as the host described it.
          assert.match((await window.text("described-tool")) ?? "", /MCP tool verify_agent/);
          assert.match((await window.text("arguments")) ?? "", /agent\s*"desktop"/);
          await window.click("Approve");
        }),
      ]);
      assertPaidResult(result, "verify_agent");
      await assertSettled(rig, caller, before, [7_000n]);
    });

    it("answers a payment elicitation from the window when the host cannot", async () => {
      const { rig } = get();
      const server = rig.demo.urls.mcpSse;
      const caller = `proxy:${new URL(server).origin}`;
      const host = await connect(server);
      const before = await snapshot(rig, caller);
      const opened = rig.confirmWindowsOpened();
      const [result] = await Promise.all([
        host.client.callTool({ name: "confirmed_search", arguments: { query: "elicited" } }),
        rig.nextConfirmWindow().then((window) => window.click("Approve")),
      ]);
      assertPaidResult(result, "confirmed_search");
      await assertSettled(rig, caller, before, [10_000n]);
      assert.equal(rig.confirmWindowsOpened() - opened, 1, "one window for the elicitation");
    });

    it("pays under the proxy's own budget without a window (an x402 payee once approved); a web origin's budget is not its", async () => {
      const { rig } = get();
      const server = rig.demo.urls.mcpJson;
      const caller = `proxy:${new URL(server).origin}`;
      // The upstream's own origin, as a web page, has a budget: the proxy is still asked.
      await grantOriginBudget(rig.wallet, new URL(server).origin, {
        amount: "1000000",
        autoApproveUpTo: "1000000",
      });
      const host = await connect(server);
      const asked = await snapshot(rig, caller);
      const opened = rig.confirmWindowsOpened();
      await Promise.all([
        host.client.callTool({ name: "web_search", arguments: { query: "asked" } }),
        rig.nextConfirmWindow().then((window) => window.click("Approve")),
      ]);
      assert.equal(
        rig.confirmWindowsOpened() - opened,
        1,
        "a web origin's budget is not the proxy's",
      );
      await assertSettled(rig, caller, asked, [5_000n]);

      // Up to 0.01 test USD a call without asking: the surge-priced tool (0.02) is still asked.
      await grantOriginBudget(rig.wallet, caller, { amount: "100000", autoApproveUpTo: "10000" });
      const before = await snapshot(rig, caller);
      const stipendex = await host.client.callTool({
        name: "web_search",
        arguments: { query: "budget" },
      });
      assertPaidResult(stipendex, "web_search");
      // Any local process may speak as the desktop app, and an x402 price's payee is its word
      // alone: the first payment to it is asked, the next ones are the budget's.
      const [x402] = await Promise.all([
        host.client.callTool({ name: "x402_search", arguments: { query: "budget" } }),
        rig.nextConfirmWindow().then((window) => window.click("Approve")),
      ]);
      assertPaidResult(x402, "x402_search");
      const again = await host.client.callTool({
        name: "x402_search",
        arguments: { query: "budget again" },
      });
      assertPaidResult(again, "x402_search");
      await assertSettled(rig, caller, before, [5_000n, 3_000n, 3_000n]);
      assert.equal(
        rig.confirmWindowsOpened() - opened,
        2,
        "no window under the proxy's budget but the x402 payee's first",
      );
      const spent = (spend: SpendSummary[]) =>
        BigInt(
          spend.find((summary) => summary.currency === testCurrency("USD"))?.origin?.spent ?? 0,
        );
      const after = await rig.wallet({ method: "ui_getSpend", params: { origin: caller } });
      assert.equal(
        spent(after) - spent(before.spend),
        11_000n,
        "the proxy's own budget was charged",
      );
    });

    it("withdraws a call the desktop app cancels while the window asks: the window goes, nothing is paid", async () => {
      const { rig } = get();
      const server = rig.demo.urls.mcpJson;
      const caller = `proxy:${new URL(server).origin}`;
      const host = await connect(server);
      const before = await snapshot(rig, caller);
      const shown = rig.nextConfirmWindow();
      const cancel = new AbortController();
      // Priced above any budget the other tests give the proxy: always asked.
      const call = host.client.callTool(
        { name: "surge_search", arguments: { query: "cancelled" } },
        undefined,
        { signal: cancel.signal },
      );
      await shown;
      cancel.abort("the person stopped the agent");
      await assert.rejects(call);
      await assertWithdrawn(rig, caller, before, "The desktop app");
    });

    it("withdraws what a desktop app that quits was still asking for: the window goes, nothing is paid", async () => {
      const { rig } = get();
      const server = rig.demo.urls.mcpJson;
      const caller = `proxy:${new URL(server).origin}`;
      const host = await connectDesktopHost(places, server);
      const before = await snapshot(rig, caller);
      const shown = rig.nextConfirmWindow();
      const call = host.client
        .callTool({ name: "surge_search", arguments: { query: "quit" } })
        .catch(() => "the app quit");
      await shown;
      await host.close();
      assert.equal(await call, "the app quit");
      await assertWithdrawn(rig, caller, before, "The desktop app");
    });

    it("says when the person declined, and when the wallet is locked", async () => {
      const { rig } = get();
      const host = await connect(rig.demo.urls.mcpJson);
      const [declined] = await Promise.allSettled([
        host.client.callTool({ name: "surge_search", arguments: { query: "declined" } }),
        rig.nextConfirmWindow().then((window) => window.click("Decline")),
      ]);
      assert.equal(declined.status, "rejected");
      const reason = declined.status === "rejected" ? declined.reason : undefined;
      assert.ok(reason instanceof McpError, String(reason));
      assert.equal(reason.code, -32402);
      assert.match(reason.message, /did not make it: You declined the payment/);

      await rig.wallet({ method: "ui_lock", params: undefined });
      await assertRefusedSaying(host, /locked: unlock it in the browser/);
    });
  });
}
