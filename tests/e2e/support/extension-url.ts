import { StipendexError } from "../../../lib/errors";

export class NoWalletError extends StipendexError {
  override name = "NoWalletError";

  constructor(path: string) {
    super(
      "no-wallet",
      `Cannot build an extension URL for "${path}": the browser runs without the wallet`,
    );
  }
}

/**
 * URL of one of the wallet's own pages, e.g. chrome-extension://ID/popup.html;
 * `base` is undefined when the browser runs without the wallet.
 */
export function extensionPageUrl(base: string | undefined, path: string): string {
  if (!base) throw new NoWalletError(path);
  return new URL(path.replace(/^\/+/, ""), base).href;
}
