import type { Caip2 } from "../protocol/offer";
import { knownNetwork } from "../protocol/rails/networks";

/**
 * Tokens on a testnet are test money: they count in a currency of their own
 * ("test USD"), so they have their own caps, site budgets and totals, never
 * use up a real cap, and a rule granted while paying on a testnet can never
 * pay on a mainnet. A network the wallet does not know counts as real money
 * (the stricter side).
 */
export function isTestnet(network: Caip2): boolean {
  return knownNetwork(network)?.testnet === true;
}

const TEST_PREFIX = "test ";

/** The currency a token counts in: "USD" on a mainnet, "test USD" on a testnet. */
export function chargeCurrency(currency: string, network: Caip2): string {
  return isTestnet(network) ? testCurrency(currency) : currency;
}

export function isTestCurrency(currency: string): boolean {
  return currency.startsWith(TEST_PREFIX);
}

/** "test USD" for "USD". */
export function testCurrency(currency: string): string {
  return isTestCurrency(currency) ? currency : `${TEST_PREFIX}${currency}`;
}

/** "USD" for "test USD": what a test currency stands for. */
export function realCurrency(currency: string): string {
  return isTestCurrency(currency) ? currency.slice(TEST_PREFIX.length) : currency;
}
