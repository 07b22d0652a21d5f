// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PageOfferView } from "@/lib/messages";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { APPROVAL } from "@/tests/unit-support/ui/fixtures";
import { PageOffer } from "./PageOffer";

const OFFER: PageOfferView = {
  viewId: "v1",
  url: "https://news.example/article",
  origin: "https://news.example",
  description: "One article",
  amount: APPROVAL.amount,
  paying: false,
};

describe("PageOffer", () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.windows, "getAll").mockResolvedValue([
      { id: 1, type: "normal", focused: true, tabs: [{ id: 3, active: true }] } as never,
    ]);
    vi.spyOn(fakeBrowser.windows, "getLastFocused").mockResolvedValue({ id: 1 } as never);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("shows the start of a page's long description and address, so neither pushes the amount out of view", async () => {
    const description = `${"Read me. ".repeat(100)}END`;
    const url = `https://news.example/${"a".repeat(300)}`;
    installFakeBackground({ ui_getPageOffer: () => ({ ...OFFER, description, url }) });
    render(<PageOffer />);
    const shown = await screen.findByTestId("page-offer-description");
    expect(Array.from(shown.textContent ?? "")).toHaveLength(201);
    expect(shown.textContent).not.toContain("END");
    expect(screen.getByText("Show the whole description")).toBeTruthy();
    expect(screen.getByText("Show the whole address")).toBeTruthy();
    expect(screen.getByTestId("page-offer-amount").textContent).toContain("0.005");
  });

  it("shows a short description whole", async () => {
    installFakeBackground({ ui_getPageOffer: () => OFFER });
    render(<PageOffer />);
    expect((await screen.findByTestId("page-offer-description")).textContent).toBe("One article");
    expect(screen.queryByText("Show the whole description")).toBeNull();
  });
});
