import { errorText } from "../errors";
import { readHttpChallenge } from "../hook/http-payment";
import { RECEIPT_HEADERS } from "../hook/wallet-link";
import {
  type DisplayAmount,
  ErrorCode,
  type PageOfferView,
  type PaymentAnswer,
  type PaymentChallenge,
  type PayParams,
  type ReceiptParams,
} from "../messages";
import { type Caller, chooseOption } from "../payments/engine-parts";
import { displayAmount } from "../payments/history";
import { bindPayee } from "../payments/payee";
import { readChallenge } from "../payments/read-challenge";
import { isRecord } from "../protocol/rails/is-record";
import { randomId } from "../random-id";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import { readItem, storageItem, writeItem } from "../wallet/storage-item";
import type { WalletServices } from "./handlers";
import type { UiHandlers } from "./router";
import { RpcError } from "./rpc-error";

/** The wallet pages' methods page offers answer (the other handlers are in handlers.ts). */
export type PageOfferMethod = "ui_getPageOffer" | "ui_payPage";

export function pageOfferHandlers(offers: PageOffers): Pick<UiHandlers, PageOfferMethod> {
  return {
    ui_getPageOffer: (params) => offers.view(params.tabId),
    ui_payPage: (params) => offers.pay(params.tabId, params.viewId),
  };
}

/** A top-level navigation's response, as webRequest reports it. */
export interface PageResponse {
  tabId: number;
  url: string;
  method: string;
  statusCode: number;
  headers: readonly { name: string; value?: string }[];
}

/** A declarativeNetRequest session rule that sets one request header. */
export interface HeaderRule {
  id: number;
  priority: number;
  action: {
    type: "modifyHeaders";
    requestHeaders: { header: string; operation: "set"; value: string }[];
  };
  condition: {
    urlFilter: string;
    isUrlFilterCaseSensitive: true;
    requestMethods: "get"[];
    resourceTypes: "main_frame"[];
    tabIds: number[];
  };
}

/** What page offers need from the wallet and the browser; tests pass in-memory equivalents. */
export interface PageOffersPlatform {
  session: KeyValueStore;
  /** Asks a page again, for x402 v1 requirements (its browsers get HTML). */
  fetch: typeof fetch;
  /**
   * What the popup shows of a price, and when it stops being valid (a
   * Quote's expiry, in seconds; x402 prices have none); throws when the
   * wallet cannot read it.
   */
  describe(challenge: PaymentChallenge, origin: string): Promise<DescribedPrice>;
  /** The payment engine: same checks, budgets, window and history as any payment. */
  pay(params: PayParams, caller: Caller): Promise<PaymentAnswer>;
  /** The engine's withdrawal of a request nobody will use (its tab closed or went elsewhere). */
  withdraw(requestId: string, caller: Caller): Promise<void>;
  /** Files a paid load's outcome as a page's receipt would be. */
  receipt(params: ReceiptParams, origin: string): Promise<unknown>;
  /** Shows (or clears) the toolbar badge of one tab. */
  badge(tabId: number, offered: boolean): Promise<void>;
  addRule(rule: HeaderRule): Promise<void>;
  removeRule(id: number): Promise<void>;
  /** Navigates a tab to `url`. */
  load(tabId: number, url: string): Promise<void>;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The popup's picture of a page's price. */
export interface DescribedPrice {
  description: string;
  amount: DisplayAmount;
  /** When the price stops being valid, in seconds since the epoch (a Quote's expiry). */
  expiresAt?: number;
}

/** Who pays a tab's offer, as the engine knows it: the page in that tab's top frame, at the person's click. */
function callerOf(offer: StoredOffer, tabId: number): Caller {
  return { origin: offer.origin, tabId, frameId: 0, topOrigin: offer.origin, byPerson: true };
}

interface StoredOffer {
  /** A new one for every price read (PageOfferView.viewId): what the person was shown. */
  viewId: string;
  url: string;
  origin: string;
  challenge: PaymentChallenge;
  /** The engine's request id: asking again resumes the same payment, never a second one. */
  requestId: string;
  description: string;
  amount: DisplayAmount;
  /** When the price stops being valid (seconds), if it does: then the page is asked again. */
  expiresAt?: number;
  /** Set once approved: the payment and the rule that carries it on the next load. */
  paid?: { paymentId: string; ruleId: number };
}

type Offers = Record<string, StoredOffer>;

/** A price about to expire is asked again: the person gets this long to decide in the window. */
const DECISION_MS = 30_000;

const PAGE_OFFERS = storageItem<Offers>(STORAGE_KEYS.pageOffers, (stored) =>
  isRecord(stored) ? (stored as Offers) : undefined,
);

/**
 * Paywalled pages: a top-level page that answers 402 with a price the wallet
 * speaks becomes an offer for its tab (badge and popup), never a payment by
 * itself. Paying goes through the payment engine; on approval the page is
 * loaded once with the payment header (a session rule for that tab and URL,
 * removed when the load answers), and that answer is filed as the receipt.
 * Kept in storage.session, so a restarted worker still knows.
 */
export class PageOffers {
  private queue: Promise<unknown> = Promise.resolve();
  /** The payment under way in each tab. */
  private readonly paying = new Map<number, Promise<{ paymentId: string }>>();

  constructor(private readonly p: PageOffersPlatform) {}

  /** A main-frame response in a tab: a paid load answering, a new paywall, or a page without one. */
  async responded(response: PageResponse): Promise<void> {
    const { tabId } = response;
    if (tabId < 0) return;
    const offer = await this.get(tabId);
    if (offer?.paid) {
      await this.p.removeRule(offer.paid.ruleId);
      await this.set(tabId, undefined);
      await this.fileLoad(offer, offer.paid.paymentId, response);
    } else if (offer) {
      // The tab shows another page: a payment of the old one still asked about is nobody's now.
      await this.p.withdraw(offer.requestId, callerOf(offer, tabId));
    }
    const challenge = await pageChallenge(response, this.p.fetch);
    if (!challenge) {
      if (offer) await this.set(tabId, undefined);
      return;
    }
    const origin = new URL(response.url).origin;
    try {
      await this.set(tabId, await this.offerOf(response.url, origin, challenge));
    } catch {
      await this.set(tabId, undefined);
    }
  }

  private async offerOf(
    url: string,
    origin: string,
    challenge: PaymentChallenge,
  ): Promise<StoredOffer> {
    const described = await this.p.describe(challenge, origin);
    return { viewId: randomId(), url, origin, challenge, requestId: randomId(), ...described };
  }

  /**
   * The tab's offer with a price still valid: a Quote that expired since the
   * page was shown (or expires before the person could decide) is asked of
   * the page again, as a new request.
   */
  private async current(tabId: number, offer: StoredOffer): Promise<StoredOffer> {
    if (offer.expiresAt === undefined || offer.expiresAt * 1000 > this.p.now() + DECISION_MS) {
      return offer;
    }
    const asked = { tabId, url: offer.url, method: "GET", statusCode: 402, headers: [] };
    const challenge = await pageChallenge(asked, this.p.fetch);
    if (!challenge) {
      await this.set(tabId, undefined);
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `${offer.url} no longer asks for a payment: its price expired, and asked again the page named none`,
      );
    }
    const renewed = await this.offerOf(offer.url, offer.origin, challenge);
    if (!samePrice(renewed, offer)) {
      await this.set(tabId, renewed);
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `${offer.url} asked again for a price, and named another than the one you were shown: nothing was paid. Open the wallet again to see it`,
        { reason: "page-price-changed" },
      );
    }
    // The same terms under a fresh Quote: what the person was shown still names it.
    const same = { ...renewed, viewId: offer.viewId };
    await this.set(tabId, same);
    return same;
  }

  /** The tab finished loading: its badge again (a navigation may have reset it). */
  async loaded(tabId: number): Promise<void> {
    if (await this.get(tabId)) await this.p.badge(tabId, true);
  }

  async view(tabId: number): Promise<PageOfferView | null> {
    const offer = await this.get(tabId);
    if (!offer) return null;
    const { viewId, url, origin, description, amount } = offer;
    return { viewId, url, origin, description, amount, paying: offer.paid !== undefined };
  }

  /**
   * Asks the engine to pay the tab's offer the person was shown (`viewId`);
   * once paid, loads the page with the payment. A tab that holds another
   * price by now (the page navigated while the popup was open) pays nothing.
   */
  async pay(tabId: number, viewId: string): Promise<{ paymentId: string }> {
    const shown = await this.get(tabId);
    if (!shown) {
      throw new RpcError(ErrorCode.InvalidRequest, `Tab ${tabId} shows no page asking for payment`);
    }
    if (shown.viewId !== viewId) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `The page in tab ${tabId} asks for another price than the one you were shown (now ${shown.url}): nothing was paid. Open the wallet again to see it`,
        { reason: "page-price-changed" },
      );
    }
    // A second click (from a popup opened again while the window asks) waits for the first:
    // one approval, one paid load, even when the first asked the page for a fresh price.
    const running = this.paying.get(tabId);
    if (running) return running;
    const paying = this.payOffer(tabId, shown).finally(() => this.paying.delete(tabId));
    this.paying.set(tabId, paying);
    return paying;
  }

  private async payOffer(tabId: number, shown: StoredOffer): Promise<{ paymentId: string }> {
    const offer = await this.current(tabId, shown);
    let answer: PaymentAnswer;
    try {
      answer = await this.p.pay(
        { requestId: offer.requestId, challenge: offer.challenge },
        callerOf(offer, tabId),
      );
    } catch (error) {
      // Declined or refused: the next click asks again (a click while this one still waits
      // keeps the id, and so the same approval).
      await this.askAnew(tabId, offer);
      throw error;
    }
    const { header } = answer;
    if ((await this.get(tabId))?.requestId !== offer.requestId || !header) {
      await this.reportUnused(answer.paymentId, offer);
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Tab ${tabId} left ${offer.url} before the payment was approved: nothing was sent`,
      );
    }
    const ruleId = tabId + 1;
    try {
      await this.p.addRule(paidLoadRule(ruleId, tabId, offer.url, header));
    } catch (error) {
      // The browser refused the rule that carries the payment: it will never be sent, and the
      // next click asks for a new one.
      await this.reportUnused(answer.paymentId, offer);
      await this.askAnew(tabId, offer);
      throw new RpcError(
        ErrorCode.Internal,
        `The browser refused to load ${offer.url} with the payment (${errorText(error)}): nothing was sent`,
      );
    }
    await this.set(tabId, { ...offer, paid: { paymentId: answer.paymentId, ruleId } });
    await this.p.load(tabId, offer.url);
    return { paymentId: answer.paymentId };
  }

  /**
   * A main-frame load in a tab failed (the connection dropped or was refused,
   * the load was stopped): when it was the paid load, its rule goes (nothing
   * the browser retries carries the payment again) and it is filed as
   * unanswered, not as unsent: the payment may have reached the server.
   */
  async failed({ tabId, url }: { tabId: number; url: string }): Promise<void> {
    if (tabId < 0) return;
    const offer = await this.get(tabId);
    if (!offer?.paid || url !== offer.url) return;
    await this.p.removeRule(offer.paid.ruleId);
    await this.set(tabId, undefined);
    await this.reportUnanswered(offer.paid.paymentId, offer);
  }

  /**
   * A closed tab: its offer goes, a payment of it still asked about is
   * withdrawn, and a paid load under way is filed unanswered (it may have
   * reached the server before the tab closed).
   */
  async closed(tabId: number): Promise<void> {
    const offer = await this.get(tabId);
    if (!offer) return;
    await this.set(tabId, undefined);
    if (!offer.paid) return this.p.withdraw(offer.requestId, callerOf(offer, tabId));
    await this.p.removeRule(offer.paid.ruleId);
    await this.reportUnanswered(offer.paid.paymentId, offer);
  }

  /** The next click on the tab's offer (if it still shows it) is a new request. */
  private async askAnew(tabId: number, offer: StoredOffer): Promise<void> {
    if ((await this.get(tabId))?.requestId === offer.requestId) {
      await this.set(tabId, { ...offer, requestId: randomId() });
    }
  }

  /** A signed payment of the offer that was never sent, filed as such. */
  private reportUnused(paymentId: string, offer: StoredOffer): Promise<unknown> {
    return this.p.receipt(
      { paymentId, status: 0, receipt: null, unanswered: "not-sent" },
      offer.origin,
    );
  }

  /**
   * A paid load that brought no answer: the browser was told to load the page
   * with the payment, so it may have reached the server (the chain tells).
   */
  private reportUnanswered(paymentId: string, offer: StoredOffer): Promise<unknown> {
    return this.p.receipt(
      { paymentId, status: 0, receipt: null, unanswered: "no-response" },
      offer.origin,
    );
  }

  /**
   * The paid load's answer filed as its receipt; a tab that showed another
   * page instead (the load given up for it) files none.
   */
  private fileLoad(offer: StoredOffer, paymentId: string, response: PageResponse) {
    const header = (name: string) =>
      response.headers.find((h) => h.name.toLowerCase() === name)?.value;
    if (response.url !== offer.url) return this.reportUnanswered(paymentId, offer);
    const paymentRequired = header("payment-required");
    return this.p.receipt(
      {
        paymentId,
        status: response.statusCode,
        receipt: RECEIPT_HEADERS.map(header).find((value) => value !== undefined) ?? null,
        ...(response.statusCode === 402
          ? {
              error: {
                code: 402,
                message: "The page answered its paid load with 402 again",
                ...(paymentRequired === undefined ? {} : { data: { paymentRequired } }),
              },
            }
          : {}),
      },
      offer.origin,
    );
  }

  private async get(tabId: number): Promise<StoredOffer | undefined> {
    await this.queue;
    return (await readItem(this.p.session, PAGE_OFFERS))?.[tabId];
  }

  /** One read-modify-write at a time, and the tab's badge to match. */
  private set(tabId: number, offer: StoredOffer | undefined): Promise<void> {
    const next = this.queue.then(async () => {
      const offers = { ...(await readItem(this.p.session, PAGE_OFFERS)) };
      if (offer) offers[tabId] = offer;
      else delete offers[tabId];
      await writeItem(this.p.session, PAGE_OFFERS, offers);
      await this.p.badge(tabId, offer !== undefined);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * The price a 402 page asks, as the hook would read it: x402 v2 sends it in the
 * PAYMENT-REQUIRED header even with its HTML paywall; x402 v1 gives browsers
 * HTML only, so the page is asked again for JSON. Only GET pages are asked.
 */
export async function pageChallenge(
  response: PageResponse,
  fetcher: typeof fetch,
): Promise<PaymentChallenge | undefined> {
  if (response.statusCode !== 402 || response.method !== "GET") return undefined;
  const header = response.headers.find((h) => h.name.toLowerCase() === "payment-required");
  const priced =
    header?.value === undefined
      ? await fetcher(response.url, {
          headers: { accept: "application/json" },
          credentials: "include",
          redirect: "manual",
        }).catch(() => undefined)
      : new Response("", { status: 402, headers: { "payment-required": header.value } });
  if (priced?.status !== 402) return undefined;
  return readHttpChallenge(priced, response.url, "GET");
}

/** Whether `renewed` asks what `shown` did: its words, and as much of the same token on the same network. */
function samePrice(renewed: StoredOffer, shown: StoredOffer): boolean {
  const [now, seen] = [renewed.amount, shown.amount];
  return (
    renewed.description === shown.description &&
    now.atomic === seen.atomic &&
    now.decimals === seen.decimals &&
    now.symbol === seen.symbol &&
    now.network === seen.network
  );
}

/**
 * The one-time rule: this header on the next top-level GET of `url` in `tabId`.
 * Matched with its case (both browsers match a urlFilter in any case by
 * default: `/Page` redirecting to `/page` would carry the payment again); a
 * `*` or `^` in the URL still widens the match, within that origin and path.
 */
export function paidLoadRule(
  id: number,
  tabId: number,
  url: string,
  header: { name: string; value: string },
): HeaderRule {
  return {
    id,
    priority: 1,
    action: {
      type: "modifyHeaders",
      requestHeaders: [{ header: header.name, operation: "set", value: header.value }],
    },
    condition: {
      urlFilter: `|${url}|`,
      isUrlFilterCaseSensitive: true,
      requestMethods: ["get"],
      resourceTypes: ["main_frame"],
      tabIds: [tabId],
    },
  };
}

/** The popup's picture of a price: the engine's reading of it, and the option it would pay. */
export function describeChallenge(
  s: Pick<WalletServices, "registry" | "descriptors" | "policy" | "now">,
): PageOffersPlatform["describe"] {
  return async (challenge, origin) => {
    const { offer } = await readChallenge(
      challenge,
      { registry: s.registry, descriptors: s.descriptors, now: s.now },
      origin,
    );
    const option = chooseOption(await s.policy.settings(), offer);
    return {
      description: bindPayee(offer, option).description,
      amount: displayAmount(s.registry, { ...option, amount: option.amount.toString() }),
      ...(offer.quote ? { expiresAt: offer.quote.expiresAt } : {}),
    };
  };
}
