import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { handOverAddress, takeHandedOverAddress } from "../../src/stores/handover.ts";
import { $signIn, forgotPassword, resetSignIn } from "../../src/stores/signIn.ts";

/** A localStorage of its own for each test (what a browser profile shares between tabs). */
function fakeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}

let storage: Storage;
beforeEach(() => {
  storage = fakeStorage();
  resetSignIn();
  vi.stubGlobal("localStorage", storage);
});
afterEach(() => vi.unstubAllGlobals());

describe("Forgot Password hand-over", () => {
  test("gives the reset page the address typed on the sign-in card, once", () => {
    resetSignIn({ email: "ada@example.com", mfaRequired: false });
    forgotPassword();
    expect(takeHandedOverAddress()).toBe("ada@example.com");
    expect(takeHandedOverAddress()).toBeNull();
    expect(storage.length).toBe(0);
  });

  test("ignores an address handed over more than two minutes ago, and removes it", () => {
    handOverAddress("ada@example.com", 1_000_000);
    expect(takeHandedOverAddress(1_000_000 + 120_001)).toBeNull();
    expect(storage.length).toBe(0);
  });

  test("keeps nothing when the card has no address yet", () => {
    expect($signIn.get().email).toBe("");
    forgotPassword();
    expect(storage.length).toBe(0);
  });

  test("works without storage (switched off), handing over nothing", () => {
    vi.stubGlobal("localStorage", undefined);
    handOverAddress("ada@example.com");
    expect(takeHandedOverAddress()).toBeNull();
  });
});
