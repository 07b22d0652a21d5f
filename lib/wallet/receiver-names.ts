/**
 * The names one payment's receiver goes by, for the person's allow and deny
 * lists. A receiver is listed as the wallet names it (a Stipendex Quote's
 * verified origin, an x402 price's "eip155:<chain>:<pay-to>"), as the window
 * shows its pay-to address, or as the site it was met on: one payee under
 * another protocol, another letter case or another spelling of its origin is
 * still the payee the person listed.
 */
export interface ReceiverNames {
  /** The offer's receiver id: a Stipendex `iss`, or an x402 price's payee account. */
  receiver: string;
  /** The account paid, "eip155:<chain>:<address>". */
  account?: string;
  /** The address paid, on any network. */
  address?: string;
  /** The origin an x402 price was served from: the page's word, so it only ever blocks. */
  claimedBy?: string;
}

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const ACCOUNT = /^(eip155:\d+):(0x[0-9a-f]{40})$/i;

/**
 * One spelling of a receiver name: addresses and accounts in lower case (an
 * EIP-55 checksum is only letter case), web addresses as their origin.
 */
export function receiverName(text: string): string {
  const name = text.trim();
  if (ADDRESS.test(name)) return name.toLowerCase();
  if (ACCOUNT.test(name)) return name.toLowerCase();
  if (/^https?:\/\//i.test(name)) {
    try {
      return new URL(name).origin;
    } catch {
      return name;
    }
  }
  return name;
}

/** The names of a payment to `option`'s payee, offered by `offer`. */
export function receiverNames(
  offer: { receiver: string; claimedBy?: string },
  option: { network: string; payTo: string },
): ReceiverNames {
  return {
    receiver: offer.receiver,
    account: `${option.network}:${option.payTo}`,
    address: option.payTo,
    ...(offer.claimedBy === undefined ? {} : { claimedBy: offer.claimedBy }),
  };
}

function listed(list: readonly string[], names: readonly (string | undefined)[]): boolean {
  if (list.length === 0) return false;
  const wanted = new Set(names.flatMap((name) => (name === undefined ? [] : [receiverName(name)])));
  return list.some((entry) => wanted.has(receiverName(entry)));
}

/** Whether the deny list names the payment by any of its names, the site it came from too. */
export function isDenied(deny: readonly string[], names: ReceiverNames): boolean {
  return listed(deny, [names.receiver, names.account, names.address, names.claimedBy]);
}

/**
 * Whether the allow list names what is paid. Not by the site an x402 price
 * came from: that is the page's word, and an allowance is not lent on it.
 */
export function isAllowed(allow: readonly string[], names: ReceiverNames): boolean {
  return listed(allow, [names.receiver, names.account, names.address]);
}
