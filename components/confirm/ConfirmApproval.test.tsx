// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PAGE_LIMITS } from "@/lib/hook/wallet-link";
import type { PendingApproval, ShownArguments } from "@/lib/messages";
import { ACTIVATION_DELAY_MS } from "@/lib/ui/activation-delay";
import { unisolatedBidi } from "@/tests/unit-support/ui/bidi";
import { APPROVAL } from "@/tests/unit-support/ui/fixtures";
import { ConfirmApproval, type ConfirmApprovalProps } from "./ConfirmApproval";

function renderApproval(
  overrides: Partial<PendingApproval> = {},
  props: Partial<ConfirmApprovalProps> = {},
) {
  const onDecide = vi.fn();
  const onUnlock = vi.fn();
  const onSelect = vi.fn();
  const view = (changes: Partial<PendingApproval>, more: Partial<ConfirmApprovalProps> = {}) => (
    <ConfirmApproval
      approval={{ ...APPROVAL, ...changes }}
      position={1}
      count={1}
      busy={false}
      onDecide={onDecide}
      onUnlock={onUnlock}
      onSelect={onSelect}
      {...props}
      {...more}
    />
  );
  const { rerender } = render(view(overrides));
  /** The same approval, as the next poll of the queue shows it. */
  const update = (changes: Partial<PendingApproval>) =>
    rerender(view({ ...overrides, ...changes }));
  /** The same approval, with other props from the window (busy, an error). */
  const reprops = (more: Partial<ConfirmApprovalProps>) => rerender(view(overrides, more));
  return { onDecide, onUnlock, onSelect, update, reprops };
}

/**
 * Characters of text laid out before `target`, leaving out what a closed
 * <details> hides (its summary shows) and the MCP arguments' scroll box (a region).
 */
function textBefore(target: Element): number {
  let count = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (target.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    const parent = node.parentElement;
    const details = parent?.closest("details");
    if (details && !details.open && !parent?.closest("summary")) continue;
    if (parent?.closest("[role=region]")) continue;
    count += node.textContent?.length ?? 0;
  }
  return count;
}

/** Page text the wallet kept whole. */
const text = (shown: string) => ({ text: shown, omitted: 0 });

/** A call to tool "t" with these arguments, as the background shows them. */
const callWith = (args: ShownArguments): Partial<PendingApproval> => ({
  resource: { kind: "mcp", server: "https://mcp.example/mcp", tool: "t", arguments: args },
});

/** Lets the request stay in front of the person until Approve counts. */
const arm = () => act(() => vi.advanceTimersByTime(ACTIVATION_DELAY_MS));
const approveButton = () => screen.getByRole("button", { name: "Approve" }) as HTMLButtonElement;

describe("ConfirmApproval", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("shows a desktop app's request through the proxy as such, with the upstream server", () => {
    renderApproval({ origin: "proxy:http://127.0.0.1:4020" });
    expect(screen.getByTestId("origin").textContent).toBe(
      "desktop app via proxy (http://127.0.0.1:4020)",
    );
  });

  it("shows who asks, who is paid, the pay-to address, what for and the remaining limits", () => {
    renderApproval();
    expect(screen.getByTestId("origin").textContent).toBe("https://agent.example");
    const receiver = screen.getByTestId("receiver");
    expect(receiver.textContent).toContain("did:web:api.weather.example");
    // Its id first; the name it gives itself after, as its own word.
    expect(receiver.textContent?.startsWith("did:web:api.weather.example")).toBe(true);
    expect(screen.getByTestId("receiver-name").textContent).toBe(
      `Calls itself: ${APPROVAL.receiver.name}`,
    );
    // Signed by a key its descriptor lists; "verified" is a trusted registry's word (envelope.md §4).
    expect(within(receiver).getByText("Signed price")).toBeTruthy();
    expect(within(receiver).queryByText(/Verified/)).toBeNull();
    cleanup();
    renderApproval({ receiver: { ...APPROVAL.receiver, registry: "Agent Registry" } });
    expect(
      within(screen.getByTestId("receiver")).getByText("Verified by Agent Registry"),
    ).toBeTruthy();
    expect(screen.getByTestId("pay-to").textContent).toBe(APPROVAL.payTo);
    expect(screen.getByText("Forecast for Paris, 7 days")).toBeTruthy();
    expect(screen.getByText("forecast")).toBeTruthy();
    const args = screen.getByRole("region", { name: "Called with 2 arguments:" });
    expect(within(args).getByText("city")).toBeTruthy();
    expect(within(args).getByText('"Paris"')).toBeTruthy();
    const remaining = screen.getByTestId("remaining");
    expect(remaining.textContent).toContain("All sites, today: 4.995 USD");
    expect(remaining.textContent).toContain("This site, this week: 0.995 USD");
  });

  it("shows the start of a long description, the rest only when asked: the amount stays in view", () => {
    const long = `Amount: 0.01 USDC ${"x".repeat(5_000)}`;
    renderApproval({ description: long });
    const shown = screen.getByTestId("description").textContent ?? "";
    expect(shown.length).toBeLessThanOrEqual(201);
    expect(shown.startsWith("Amount: 0.01 USDC")).toBe(true);
    expect(screen.getByText("Show the whole description")).toBeTruthy();
    expect(screen.getByText(long)).toBeTruthy();
  });

  it("keeps the amount in view whatever a page makes its URL, MCP server or tool name", () => {
    const beforeAmount = () => textBefore(screen.getByTestId("amount"));
    renderApproval({});
    const usual = beforeAmount();
    cleanup();
    // The longest URL a page may send.
    const url = `https://api.example/search?q=${"a".repeat(PAGE_LIMITS.url - 29)}`;
    renderApproval({ resource: { kind: "http", method: "GET", url } });
    expect(beforeAmount() - usual).toBeLessThan(300);
    expect(screen.getByText(url)).toBeTruthy();
    cleanup();
    const server = `https://mcp.example/${"p".repeat(PAGE_LIMITS.url - 20)}`;
    renderApproval({ resource: { kind: "mcp", server, tool: "t".repeat(256) } });
    expect(beforeAmount() - usual).toBeLessThan(300);
    expect(screen.getAllByText("Show the whole address")).toHaveLength(1);
    expect(screen.getAllByText("Show the whole name")).toHaveLength(1);
  });

  it("isolates what a page or receiver wrote: a bidi override cannot reorder what follows it", () => {
    renderApproval({
      receiver: { id: "https://xyz.lapyap.moc", verified: true, name: "Pay Co \u202E" },
      description: "Weather \u202E",
      resource: { kind: "http", method: "GET", url: "https://api.example/\u202Eq" },
      topOrigin: "https://top.example",
      priceHint: { estimate: "0.005 USD\u202E", model: "per_call\u202E" },
      declaredPayments: { version: "0.1\u202E" },
    });
    expect(unisolatedBidi(document.body)).toEqual([]);
    cleanup();
    renderApproval(
      callWith({
        listed: [
          { name: text("to\u202E"), value: text('"x\u202E"') },
          { name: { text: "cut\u202E", omitted: 9 }, value: text(`"${"\u202E".repeat(300)}"`) },
        ],
        unlisted: 0,
      }),
    );
    expect(unisolatedBidi(document.body)).toEqual([]);
  });

  it("shows a frame's top-level site, who claims an unsigned price, and no always-allow for an http site", () => {
    renderApproval({
      origin: "http://ads.example",
      topOrigin: "https://news.example",
      receiver: {
        id: "eip155:84532:0x000000000000000000000000000000000000dead",
        verified: false,
        claimedBy: "https://api.trusted.example",
      },
      alwaysAllowBlocked: "http://ads.example is not a secure (https) site",
    });
    expect(screen.getByTestId("top-origin").textContent).toContain("https://news.example");
    expect(screen.getByTestId("claimed-by").textContent).toContain("https://api.trusted.example");
    expect(screen.queryByLabelText("Daily amount for this site")).toBeNull();
    expect(screen.getByText(/not a secure \(https\) site/)).toBeTruthy();
  });

  it("says how much of a description the wallet left out", () => {
    renderApproval({ description: "A long one", descriptionOmitted: 12_345 });
    expect(screen.getByText("12,345 more characters, not shown by the wallet")).toBeTruthy();
  });

  it("says a request waited behind the badge, and offers no always-allow from it", () => {
    renderApproval({ warnings: ["waited-unshown"] });
    expect(
      screen.getByText(/waited behind the toolbar badge: it is not what opened this window/),
    ).toBeTruthy();
    expect(screen.queryByLabelText("Daily amount for this site")).toBeNull();
    expect(screen.getByTestId("unshown-budget").textContent).toMatch(/^No automatic budget/);
  });

  it("offers no always-allow to a site inside another's page: its budget would not apply there", () => {
    renderApproval({ topOrigin: "https://evil.example" });
    expect(screen.getByTestId("top-origin").textContent).toBe(
      "inside a page of https://evil.example",
    );
    expect(screen.queryByLabelText("Daily amount for this site")).toBeNull();
    expect(screen.getByTestId("framed-budget").textContent).toBe(
      "Inside https://evil.example, https://agent.example asks you every time: its automatic budget applies only when it is opened on its own.",
    );
    cleanup();
    renderApproval({ topOrigin: "null" });
    expect(screen.getByTestId("top-origin").textContent).toBe(
      "inside a page with no web address (a local file or a sandboxed page)",
    );
    expect(screen.getByTestId("framed-budget").textContent).toMatch(
      /^Inside a page with no web address \(a local file or a sandboxed page\), https:\/\/agent.example asks you every time/,
    );
    cleanup();
    // A frame of its own site (which may sit in another site's frame): no site named twice.
    renderApproval({ topOrigin: APPROVAL.origin });
    expect(screen.getByTestId("framed-budget").textContent).toBe(
      `In a frame, ${APPROVAL.origin} asks you every time: its automatic budget applies only when it is the page you opened.`,
    );
  });

  it("shows the balance now and after this payment", () => {
    renderApproval({ ...APPROVAL, balance: { available: "8000", after: "3000" } });
    expect(screen.getByTestId("balance").textContent).toMatch(
      /^0\.008 \S+, then 0\.003 \S+ after this payment$/,
    );
    expect(within(screen.getByTestId("balance")).getByText(/^0\.003/).tagName).toBe("STRONG");
  });

  // Black-box review: "Your balance -0.0055 USDC" when signed payments exceeded the chain's.
  it("flags a payment the balance cannot cover, with no amount below zero", () => {
    const { update } = renderApproval({
      ...APPROVAL,
      balance: { available: "3000", after: "-2000" },
      warnings: [...APPROVAL.warnings, "insufficient-balance"],
    });
    expect(screen.getByTestId("balance").textContent).toMatch(
      /^0\.003 \S+: not enough for this payment$/,
    );
    expect(screen.getByText(/^Not enough funds/)).toBeTruthy();
    update({ balance: { available: "-8000", after: "-13000" } });
    expect(screen.getByTestId("balance").textContent).toMatch(
      /^0 \S+: not enough for this payment$/,
    );
  });

  it("shows in its details each field the price left out and the default the wallet used", () => {
    renderApproval({ defaults: [{ field: "x402Version", value: "1" }] });
    expect(screen.getByTestId("defaults").textContent).toBe("x402Version: 1");
  });

  it("shows the price the server announced for the tool beside the amount", () => {
    renderApproval({ priceHint: { estimate: "0.005 USD", model: "per_call" } });
    expect(screen.getByTestId("price-hint").textContent).toBe(
      "The server announced \u20680.005 USD\u2069 (\u2068per call\u2069) for this tool",
    );
  });

  it("says when the MCP server declared Stipendex payments, and with which version", () => {
    renderApproval({ declaredPayments: { version: "0.1" } });
    expect(screen.getByTestId("declared-payments").textContent).toBe(
      "The server said it takes Stipendex payments (version \u20680.1\u2069) when the page connected",
    );
  });

  it("shows an MCP call's arguments by name, in a labelled box the keyboard can scroll", () => {
    renderApproval();
    const args = screen.getByRole("region", { name: "Called with 2 arguments:" });
    expect(args.tabIndex).toBe(0);
    const names = within(args)
      .getAllByRole("term")
      .map((term) => term.textContent);
    const values = within(args)
      .getAllByRole("definition")
      .map((value) => value.textContent);
    expect(names).toEqual(["city", "days"]);
    expect(values).toEqual(['"Paris"', "7"]);
  });

  it("says so for a call without arguments, and that it was shown none where it knows no call", () => {
    const mcp = { kind: "mcp", server: "https://mcp.example/mcp", tool: "t" } as const;
    renderApproval({ resource: { ...mcp, arguments: { listed: [], unlisted: 0 } } });
    expect(screen.getByTestId("arguments").textContent).toBe("Called with no arguments");
    cleanup();
    renderApproval({ resource: mcp });
    expect(screen.queryByTestId("arguments")).toBeNull();
    cleanup();
    renderApproval({ resource: { ...mcp, argumentsUnknown: true } });
    expect(screen.getByTestId("arguments").textContent).toBe(
      "The wallet was not shown what this call asks of the tool: only the receiver's description above says.",
    );
  });

  it("shows the start of a long argument, the rest when asked, and says what the wallet left out", () => {
    const long = `"${"v".repeat(999)}`;
    renderApproval(
      callWith({
        listed: [{ name: text("doc"), value: { text: long, omitted: 4_000 } }],
        unlisted: 20,
      }),
    );
    const args = screen.getByRole("region", { name: "Called with 21 arguments:" });
    expect(within(args).getByText("Show the whole value")).toBeTruthy();
    expect(within(args).getByText(long)).toBeTruthy();
    expect(within(args).getByText("4,000 more characters, not shown by the wallet")).toBeTruthy();
    expect(within(args).getByText("20 more arguments, not listed by the wallet")).toBeTruthy();
  });

  it("shows an argument as text, never as markup", () => {
    const markup = '"<img src=x onerror=alert(1)><b>bold</b>"';
    renderApproval(
      callWith({ listed: [{ name: text("<i>n</i>"), value: text(markup) }], unlisted: 0 }),
    );
    expect(document.querySelector("img, b, i")).toBeNull();
    expect(screen.getByText(markup)).toBeTruthy();
    expect(screen.getByText("<i>n</i>")).toBeTruthy();
  });

  it("shows an HTTP resource as method and URL", () => {
    renderApproval({
      resource: { kind: "http", method: "GET", url: "https://api.example/paid?q=1" },
    });
    expect(screen.getByTestId("resource").textContent).toBe("GET https://api.example/paid?q=1");
  });

  it("shows the tool a site says an HTTP-priced POST calls, as its word, with the arguments", () => {
    renderApproval({
      resource: {
        kind: "http",
        method: "POST",
        url: "https://tools.example/mcp",
        call: {
          tool: "verify_agent",
          arguments: { listed: [{ name: text("agent"), value: text('"a-1"') }], unlisted: 0 },
        },
      },
    });
    expect(screen.getByTestId("described-tool").textContent).toBe(
      "Said to be MCP tool verify_agent: the price names only the address, the site says which tool it is.",
    );
    const args = screen.getByRole("region", { name: "Called with 1 argument:" });
    expect(within(args).getByText('"a-1"')).toBeTruthy();
    cleanup();
    const withoutArguments = {
      kind: "http",
      method: "POST",
      url: "https://tools.example/mcp",
      call: { tool: "t" },
    } as const;
    renderApproval({ resource: withoutArguments });
    expect(screen.getByTestId("arguments").textContent).toBe(
      "Its arguments are too long to show here.",
    );
    cleanup();
    // A desktop app's description is its word, not a site's.
    renderApproval({ origin: "proxy:https://tools.example", resource: withoutArguments });
    expect(screen.getByTestId("described-tool").textContent).toBe(
      "Said to be MCP tool t: the price names only the address, the desktop app says which tool it is.",
    );
  });

  it("shows an MCP resource as the locale's sentence around tool and server", () => {
    renderApproval({
      resource: { kind: "mcp", server: "https://mcp.example/mcp", tool: "web_search" },
    });
    expect(screen.getByTestId("resource").textContent).toBe(
      "MCP tool web_search on https://mcp.example/mcp",
    );
    expect(screen.queryByTestId("unsigned-tool")).toBeNull();
  });

  it("writes out the invisible characters of a tool name, a description and an argument", () => {
    renderApproval({
      resource: { kind: "mcp", server: "https://mcp.example/mcp", tool: "\u202Ehcraes_bew" },
      description: "Web search by OpenAI\u200B — verified",
    });
    expect(screen.getByTestId("resource").textContent).toBe(
      "MCP tool ⟨U+202E⟩hcraes_bew on https://mcp.example/mcp",
    );
    expect(screen.getByTestId("description").textContent).toBe(
      "Web search by OpenAI⟨U+200B⟩ — verified",
    );
    // Set apart as the server's words: a description can claim anything, a price too.
    expect(screen.getByTestId("description-source").textContent).toMatch(/server's own words/);
    cleanup();
    renderApproval(
      callWith({ listed: [{ name: text("to\u2066"), value: text('"x"') }], unlisted: 0 }),
    );
    expect(document.body.textContent).toContain("to⟨U+2066⟩");
  });

  it("says an unsigned price's tool call is the site's word, or the desktop app's", () => {
    const unsigned = {
      kind: "mcp",
      server: "https://mcp.example/mcp",
      tool: "t",
      unsigned: true,
    } as const;
    renderApproval({ resource: unsigned });
    expect(screen.getByTestId("unsigned-tool").textContent).toBe(
      "The price is unsigned: the site says which tool and arguments it is for.",
    );
    cleanup();
    renderApproval({ origin: "proxy:https://mcp.example", resource: unsigned });
    expect(screen.getByTestId("unsigned-tool").textContent).toBe(
      "The price is unsigned: the desktop app says which tool and arguments it is for.",
    );
  });

  it("marks an unverified receiver and warns about it", () => {
    renderApproval({
      receiver: { id: "did:web:unknown.example", verified: false },
      warnings: ["unverified-receiver", "first-payment-to-receiver", "far-above-usual", "mainnet"],
    });
    expect(within(screen.getByTestId("receiver")).getByText("Unverified")).toBeTruthy();
    const warnings = within(screen.getByRole("list", { name: "Warnings" })).getAllByRole(
      "listitem",
    );
    expect(warnings.map((w) => w.textContent)).toEqual([
      "⚠ Unverified receiver: the wallet could not confirm who is paid.",
      "⚠ First payment to this receiver.",
      "⚠ Far above what this site usually pays.",
      "⚠ Mainnet: this spends real money.",
    ]);
  });

  it("shows the amount with symbol and network, and the atomic amount on demand", () => {
    renderApproval();
    expect(screen.getByTestId("amount").textContent).toBe("0.005 USDC on Base Sepolia (testnet)");
    expect(screen.getByText("Testnet: test money, not real funds.")).toBeTruthy();
    expect(screen.queryByTestId("atomic-amount")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show atomic amount" }));
    expect(screen.getByTestId("atomic-amount").textContent).toBe(
      "5000 atomic units · 6 decimals · eip155:84532",
    );
  });

  it("approves on Enter and declines on Escape", () => {
    const { onDecide } = renderApproval();
    arm();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).toHaveBeenLastCalledWith("approve");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenLastCalledWith("decline");
    fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onDecide.mock.calls).toEqual([["approve"], ["decline"], ["decline"], ["approve"]]);
  });

  it("approves nothing on Enter on 'Show the whole description', which is for reading more", () => {
    const { onDecide } = renderApproval({ description: `Forecast ${"x".repeat(400)}` });
    arm();
    const summary = screen.getByText("Show the whole description");
    expect(summary.tagName).toBe("SUMMARY");
    summary.focus();
    fireEvent.keyDown(summary, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
  });

  it("counts down the price's validity, then says it expired and approves nothing", () => {
    const { onDecide } = renderApproval({ expiresAt: Date.now() + 62_000 });
    arm();
    expect(screen.getByTestId("valid-for").textContent).toBe("1:02");
    act(() => vi.advanceTimersByTime(2_000));
    expect(screen.getByTestId("valid-for").textContent).toBe("1:00");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByTestId("expiring")).toBeNull();
    // Accessibility review: the window closed at the price's end with no word before.
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.getByRole("status").textContent).toMatch(/runs out in less than 30 seconds/);
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByTestId("expiring")).toBeNull();
    expect(screen.getByTestId("valid-for").textContent).toBe("expired");
    expect(screen.getByRole("alert").textContent).toMatch(/This price has expired/);
    expect(approveButton().disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: "Enter" });
    fireEvent.click(approveButton());
    expect(onDecide).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenCalledWith("decline");
  });

  it("shows no validity for a price without an expiry (x402)", () => {
    renderApproval({ expiresAt: undefined });
    expect(screen.queryByTestId("valid-for")).toBeNull();
  });

  it("says how long the receiver can collect the payment once it is signed", () => {
    const { update } = renderApproval({ collectableForSeconds: 300 });
    expect(screen.getByTestId("collectable-for").textContent).toBe(
      "for up to 5 minutes after it is signed",
    );
    update({ expiresAt: undefined, collectableForSeconds: 86_400 });
    expect(screen.getByTestId("collectable-for").textContent).toBe(
      "for up to 24 hours after it is signed",
    );
  });

  it("approves nothing on an Enter that ends text typed for the page the window covered; a click still approves", () => {
    const { onDecide } = renderApproval();
    // The window took focus mid-sentence: "please summarise this", about 8 keys a second, then Enter.
    for (const key of "please summarise this") {
      fireEvent.keyDown(document.body, { key });
      act(() => vi.advanceTimersByTime(120));
    }
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    expect(screen.getByTestId("enter-hint").textContent).toMatch(/Typing reached this window/);
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    fireEvent.click(approveButton());
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve");
  });

  it("lets Enter approve again once another request is on screen, and after typing in its own fields", () => {
    const { onDecide, update } = renderApproval({ id: "first" });
    arm();
    fireEvent.keyDown(document.body, { key: "x" });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    update({ id: "second" });
    arm();
    expect(screen.getByTestId("enter-hint").textContent).toBe("Enter approves");
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    const perDay = screen.getByLabelText("Daily amount for this site");
    fireEvent.keyDown(perDay, { key: "2" });
    fireEvent.change(perDay, { target: { value: "2" } });
    fireEvent.keyDown(perDay, { key: "Enter" });
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve", "2000000");
  });

  it("approves nothing on Enter or a click before the request has been in front for the delay", () => {
    const { onDecide } = renderApproval();
    const approve = approveButton();
    expect(approve.disabled).toBe(true);
    const hint = document.getElementById(approve.getAttribute("aria-describedby") ?? "");
    expect(hint?.textContent).toBe("Approve becomes available in a moment");
    fireEvent.keyDown(document.body, { key: "Enter" });
    fireEvent.click(approve);
    act(() => vi.advanceTimersByTime(ACTIVATION_DELAY_MS - 1));
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(approve.disabled).toBe(false);
    expect(approve.hasAttribute("aria-describedby")).toBe(false);
    expect(screen.getByText(/Enter approves/)).toBeTruthy();
    fireEvent.click(approve);
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve");
  });

  it("says when approving lets a desktop app's budget pay this address from then on", () => {
    renderApproval({ approvesPayee: true });
    expect(screen.getByTestId("approves-payee").textContent).toMatch(
      /budget pay this address without asking next time/,
    );
  });

  it("declines on Escape at once", () => {
    const { onDecide } = renderApproval();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("decline");
  });

  // Accessibility review: Escape in "Daily amount for this site" declined the payment.
  it("leaves Escape typed in a field to the field: nothing declined", () => {
    const { onDecide } = renderApproval();
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    fireEvent.keyDown(screen.getByLabelText("Daily amount for this site"), { key: "Escape" });
    expect(onDecide).not.toHaveBeenCalled();
    const locked = renderApproval({ id: "locked", needsUnlock: true });
    fireEvent.keyDown(screen.getAllByLabelText("Password")[0] as HTMLElement, { key: "Escape" });
    expect(locked.onDecide).not.toHaveBeenCalled();
  });

  it("never pre-focuses Approve: the heading has the focus", () => {
    renderApproval();
    arm();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Payment request" }));
  });

  it("never approves on an auto-repeated Enter", () => {
    const { onDecide } = renderApproval();
    arm();
    fireEvent.keyDown(document.body, { key: "Enter", repeat: true });
    const repeatOnApprove = fireEvent.keyDown(approveButton(), { key: "Enter", repeat: true });
    expect(repeatOnApprove).toBe(false);
    expect(onDecide).not.toHaveBeenCalled();
  });

  it("restarts the delay when the window loses focus", () => {
    const { onDecide } = renderApproval();
    arm();
    act(() => {
      window.dispatchEvent(new FocusEvent("blur"));
    });
    expect(approveButton().disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: "Enter" });
    act(() => {
      window.dispatchEvent(new FocusEvent("focus"));
    });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    arm();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve");
  });

  // Accessibility review: each time the window came back to front, the delay disabled Approve and
  // the focus fell to the page; a keyboard user had to find Approve again.
  it("gives Approve back its focus once the delay after the window's return runs out", () => {
    renderApproval();
    arm();
    const approve = approveButton();
    approve.focus();
    // Browsers drop the focus of an element that becomes disabled (happy-dom does not: done here).
    approve.blur();
    act(() => {
      window.dispatchEvent(new FocusEvent("blur"));
    });
    expect(approve.disabled).toBe(true);
    act(() => {
      window.dispatchEvent(new FocusEvent("focus"));
    });
    expect(document.activeElement).toBe(document.body);
    arm();
    expect(document.activeElement).toBe(approve);

    // Focus the person moved elsewhere stays where they put it.
    const decline = screen.getByRole("button", { name: "Decline" });
    decline.focus();
    act(() => {
      window.dispatchEvent(new FocusEvent("blur"));
      window.dispatchEvent(new FocusEvent("focus"));
    });
    arm();
    expect(document.activeElement).toBe(decline);
  });

  it("restarts the delay once unlocking reveals Approve", () => {
    const { onDecide, update } = renderApproval({ needsUnlock: true });
    arm();
    update({ needsUnlock: false });
    expect(approveButton().disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    arm();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve");
  });

  it("leaves Enter on a focused button to that button", () => {
    const { onDecide } = renderApproval();
    arm();
    fireEvent.keyDown(screen.getByRole("button", { name: "Decline" }), { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
  });

  it("passes the always-allow daily amount in micro units", () => {
    const { onDecide } = renderApproval();
    arm();
    const amount = screen.getByLabelText("Daily amount for this site") as HTMLInputElement;
    expect(amount.value).toBe("0.005");
    expect(amount.disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    fireEvent.change(amount, { target: { value: "2.5" } });
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onDecide).toHaveBeenLastCalledWith("approve", "2500000");
    expect(screen.getByText("USD per day for this site")).toBeTruthy();
  });

  it("refuses an always-allow amount it cannot read, naming it", () => {
    const { onDecide } = renderApproval();
    arm();
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    fireEvent.change(screen.getByLabelText("Daily amount for this site"), {
      target: { value: "lots" },
    });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(
      /Daily amount for this site must be an amount/,
    );
  });

  it("shows the queue position and moves through it", () => {
    const { onSelect } = renderApproval({}, { position: 1, count: 2 });
    expect(screen.getByTestId("queue-position").textContent).toBe("1 of 2");
    expect(
      (screen.getByRole("button", { name: "Previous request" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Next request" }));
    expect(onSelect).toHaveBeenCalledWith(2);
  });

  it("asks for the password first when the wallet is locked", () => {
    const { onDecide, onUnlock } = renderApproval({ needsUnlock: true });
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    const password = screen.getByLabelText("Password");
    fireEvent.keyDown(password, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    fireEvent.change(password, { target: { value: "Correct-Horse-42" } });
    fireEvent.click(screen.getByRole("button", { name: "Unlock" }));
    expect(onUnlock).toHaveBeenCalledWith("Correct-Horse-42");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenCalledWith("decline");
  });

  it("says, while locked, when unlocking pays the request under the site's budget", () => {
    const { update } = renderApproval({ needsUnlock: true, paidOnUnlock: true });
    expect(screen.getByTestId("paid-on-unlock").textContent).toBe(
      "Your budget for this site covers this payment: unlocking the wallet pays it.",
    );
    // Unlocked and still asked (the budget no longer covers it): the person decides.
    update({ needsUnlock: false, paidOnUnlock: true });
    expect(screen.queryByTestId("paid-on-unlock")).toBeNull();
    update({ needsUnlock: true, paidOnUnlock: undefined });
    expect(screen.queryByTestId("paid-on-unlock")).toBeNull();
  });

  // Accessibility review: a wrong password left the focus on the page's start.
  it("puts the focus back in the password field, its text selected, when unlocking failed", () => {
    const { reprops } = renderApproval({ needsUnlock: true });
    const password = screen.getByLabelText("Password") as HTMLInputElement;
    fireEvent.change(password, { target: { value: "wrong-horse" } });
    screen.getByRole("button", { name: "Unlock" }).focus();
    reprops({ busy: true });
    reprops({ error: "Wrong password: it does not unlock this wallet" });
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, "wrong-horse".length]);
  });

  it("ignores keys while a decision is being sent", () => {
    const { onDecide } = renderApproval({}, { busy: true });
    arm();
    fireEvent.keyDown(document.body, { key: "Enter" });
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).not.toHaveBeenCalled();
  });
});
