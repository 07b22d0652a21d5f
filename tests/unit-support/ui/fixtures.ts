import type {
  BalanceRow,
  PaymentDetail,
  PaymentRow,
  PendingApproval,
  SpendByTotal,
} from "../../../lib/messages";

/** Shared test data for the wallet's pages (not bundled: only tests import it). */
export const APPROVAL: PendingApproval = {
  id: "appr-1",
  kind: "payment",
  createdAt: Date.UTC(2025, 2, 1, 12),
  origin: "https://agent.example",
  protocol: "stipendex",
  receiver: { id: "did:web:api.weather.example", verified: true, name: "Weather API" },
  payTo: "0x1111111111111111111111111111111111111111",
  description: "Forecast for Paris, 7 days",
  resource: {
    kind: "mcp",
    server: "https://api.weather.example/mcp",
    tool: "forecast",
    arguments: {
      listed: [
        { name: { text: "city", omitted: 0 }, value: { text: '"Paris"', omitted: 0 } },
        { name: { text: "days", omitted: 0 }, value: { text: "7", omitted: 0 } },
      ],
      unlisted: 0,
    },
  },
  amount: {
    atomic: "5000",
    decimals: 6,
    symbol: "USDC",
    formatted: "0.005",
    network: "eip155:84532",
    networkName: "Base Sepolia",
    testnet: true,
  },
  currency: "USD",
  total: { amount: "0.005", currency: "USD" },
  remaining: [
    { scope: "global", period: "day", currency: "USD", micro: "4995000" },
    { scope: "origin", period: "week", currency: "USD", micro: "995000" },
  ],
  warnings: ["testnet"],
  needsUnlock: false,
  collectableForSeconds: 300,
};

/** The network and token of a spend total in USDC on Base (real money). */
export const BASE_USDC: Pick<SpendByTotal, "network" | "networkName" | "testnet" | "asset"> = {
  network: "eip155:8453",
  networkName: "Base",
  testnet: false,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
};

export const PAYMENT_ROW: PaymentRow = {
  id: "pay-1",
  createdAt: Date.UTC(2025, 2, 1, 12),
  state: "settled",
  origin: "https://agent.example",
  receiver: "did:web:api.weather.example",
  what: "forecast",
  amount: APPROVAL.amount,
};

export const PAYMENT_DETAIL: PaymentDetail = {
  ...PAYMENT_ROW,
  resource: APPROVAL.resource,
  payTo: APPROVAL.payTo,
  network: "eip155:84532",
  settlementTransaction: "0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
  objects: [
    {
      kind: "quote",
      compact: "eyJhbGciOiJFZERTQSJ9.e30.sig",
      header: { alg: "EdDSA" },
      claims: { amount: "5000" },
      verified: true,
    },
    {
      kind: "receipt",
      claims: { status: "settled" },
      verified: false,
      problem: "signature does not match",
    },
  ],
};

/** Base Sepolia USDC as the balance card gets it, read and with nothing pending; tests add what they need. */
export function balanceRow(fields: Partial<BalanceRow> = {}): BalanceRow {
  return {
    network: "eip155:84532",
    networkName: "Base Sepolia",
    testnet: true,
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    symbol: "USDC",
    decimals: 6,
    currency: "USD",
    pending: "0",
    ...fields,
  };
}
