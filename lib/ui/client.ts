import { ProviderRpcError, type UiMethods, type UiRequest, type WireResponse } from "../messages";

/** Calls the background from one of the wallet's own pages. */
export async function callWallet<M extends keyof UiMethods>(
  request: Extract<UiRequest, { method: M }>,
): Promise<UiMethods[M]["result"]> {
  const response = (await browser.runtime.sendMessage({
    channel: "ui",
    ...request,
  })) as WireResponse<UiMethods[M]["result"]>;
  if (!response.ok) throw new ProviderRpcError(response.error);
  return response.result;
}
