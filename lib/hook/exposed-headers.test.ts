import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtManifest } from "@/tests/unit-support/manifest";
import { RECEIPT_HEADERS } from "./wallet-link";

/** The declarativeNetRequest rules the extension ships, as the manifest points at them. */
const RULES_PATH = "rules/expose-payment-headers.json";

interface HeaderRule {
  action: { type: string; responseHeaders: { header: string; operation: string; value: string }[] };
  condition: { resourceTypes: string[] };
}

describe("the payment headers a page's fetch reads", () => {
  // CORS lets a page read only the headers a server exposes; a server that allows the page's
  // origin but exposes none (the `cors` package's default) would hide its price and receipts.
  it("are exposed by the extension's own rule, for every fetch and XHR, in both builds", async () => {
    const [rule, ...others] = JSON.parse(
      readFileSync(`public/${RULES_PATH}`, "utf8"),
    ) as HeaderRule[];
    expect(others).toEqual([]);
    expect(rule?.condition.resourceTypes).toEqual(["xmlhttprequest"]);
    expect(rule?.action.type).toBe("modifyHeaders");
    const [exposed] = rule?.action.responseHeaders ?? [];
    expect(exposed).toMatchObject({ header: "Access-Control-Expose-Headers", operation: "append" });
    const names = (exposed?.value ?? "").split(",").map((name) => name.trim().toLowerCase());
    expect(names.sort()).toEqual(["payment-required", ...RECEIPT_HEADERS].sort());
    for (const browser of ["chrome", "firefox"] as const) {
      const manifest = await builtManifest(browser);
      expect(manifest?.declarative_net_request?.rule_resources).toEqual([
        { id: "expose_payment_headers", enabled: true, path: RULES_PATH },
      ]);
    }
  });
});
