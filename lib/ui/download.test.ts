// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { downloadFile } from "./download";

describe("downloadFile", () => {
  afterEach(() => vi.restoreAllMocks());
  it("clicks a link to a Blob URL holding the content, named for download", async () => {
    const create = vi.spyOn(URL, "createObjectURL");
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this);
    });
    downloadFile({
      filename: "payments.csv",
      mimeType: "text/csv",
      content: "id,state\n1,settled\n",
    });
    const blob = create.mock.calls[0]?.[0] as Blob;
    expect(blob.type).toBe("text/csv");
    expect(await blob.text()).toBe("id,state\n1,settled\n");
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.download).toBe("payments.csv");
    expect(clicks[0]?.href).toMatch(/^blob:/);
  });
});
