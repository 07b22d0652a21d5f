import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { TooManyPayersError } from "./errors";

export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

export interface DevAccounts {
  /** Deploys and mints the token. */
  deployer: DevAccount;
  /** Submits transferWithAuthorization and pays gas. */
  facilitator: DevAccount;
  /** Receives payments. */
  payee: DevAccount;
  /** Hold tokens and sign authorizations. */
  payers: DevAccount[];
}

/**
 * The first ten keys of anvil's default mnemonic ("test test ... junk", m/44'/60'/0'/0/i), as
 * documented by Foundry. Public test keys: never use them on a real network.
 */
export const ANVIL_DEV_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
] as const satisfies readonly Hex[];

const ROLES = 3;
export const MAX_PAYERS = ANVIL_DEV_KEYS.length - ROLES;

const devAccount = (privateKey: Hex): DevAccount => ({
  address: privateKeyToAccount(privateKey).address,
  privateKey,
});

/** Splits anvil's dev keys into roles: 0 deployer, 1 facilitator, 2 payee, 3.. payers. */
export function devAccounts(payers = 3): DevAccounts {
  if (!Number.isInteger(payers) || payers < 0 || payers > MAX_PAYERS) {
    throw new TooManyPayersError(payers, MAX_PAYERS);
  }
  const [deployer, facilitator, payee, ...rest] = ANVIL_DEV_KEYS;
  return {
    deployer: devAccount(deployer),
    facilitator: devAccount(facilitator),
    payee: devAccount(payee),
    payers: rest.slice(0, payers).map(devAccount),
  };
}
