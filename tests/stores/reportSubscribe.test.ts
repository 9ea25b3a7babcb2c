import { afterEach, describe, expect, test, vi } from "vitest";
import { $reportSubscribe, ENTER_ADDRESS, subscribeToReport } from "../../src/stores/reportSubscribe.ts";

describe("the public report's subscribe form", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("asks for an address when the field is empty, without a request", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    await subscribeToReport("hash", "   ");
    expect($reportSubscribe.get()).toEqual({ step: "form", busy: false, error: ENTER_ADDRESS });
    expect(fetch).not.toHaveBeenCalled();
  });
});
