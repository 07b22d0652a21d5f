/**
 * Replaces `window.fetch` with a wrapper that, for now, hands every call to
 * the browser's own fetch unchanged: same Response object, same rejection,
 * same streaming. It is the seam where 402 handling attaches.
 */
export function installFetchHook(win: Window & typeof globalThis): void {
  const nativeFetch = win.fetch;
  const wrapped = {
    fetch(this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
      return Reflect.apply(nativeFetch, win, args);
    },
  }.fetch;
  Object.defineProperty(wrapped, "length", { value: nativeFetch.length });
  Object.defineProperty(win, "fetch", {
    value: wrapped,
    writable: true,
    configurable: true,
    enumerable: true,
  });
}
