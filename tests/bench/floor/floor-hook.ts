import { createBridge } from "../../../lib/hook/bridge";
import type { PageRequest } from "../../../lib/messages";

/**
 * The floor's page script (MAIN world): the wallet's own bridge to the relay. Each call crosses
 * to the worker and back with about what a payment carries there (a 402's ~2 KB price).
 */
const { request } = createBridge(window);
const CHALLENGE = { body: "q".repeat(2_000), url: location.href };
Object.assign(window, {
  // The floor's kinds are not page methods: the relay passes any method on as it is.
  stipendexFloor: (kind: string) =>
    request({ method: kind, params: CHALLENGE } as unknown as PageRequest),
});
