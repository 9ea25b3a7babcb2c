import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { GRANT_ACCESS_MESSAGES, grantAccountAccess } from "../../src/api/grantAccess.ts";
import { Role } from "../../src/domain/roles.ts";
import { $config } from "../../src/stores/config.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import {
  $grantDialog,
  $grantForm,
  $linkDialog,
  COPIED,
  copyLink,
  federated,
  openGrantDialog,
  openLinkDialog,
  quotePdfHref,
  sessionShareRights,
  shareChoices,
  shareLink,
  submitGrant,
  type ShareTarget,
} from "../../src/stores/share.ts";
import { CONFIG, fakeApi, fakeNavigation, PAGE_ORIGIN } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const OPEN_QUOTE: ShareTarget = { kind: "quote", id: 1001, number: "QUO-1001", open: true };
const CLOSED_QUOTE: ShareTarget = { ...OPEN_QUOTE, id: 1002, number: "QUO-1002", open: false };
const ORDER: ShareTarget = { kind: "order", id: 5003, number: "ORD-5003", open: true };

/** Signs Ada in with a role; `saml` makes the subscription federated. */
function signedInAs(roleId: number, saml = false) {
  const info = session().sessionInformation;
  const activeSubscription = { ...info.activeSubscription, samlEnabled: saml };
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      activeSubscription: { ...activeSubscription, role: { id: roleId, name: "", displayName: "" } },
    },
  });
}

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/quotes/details/QUO-1001");
  $config.set(CONFIG);
  signedInAs(Role.ADMINISTRATOR);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("which entries the Share menu holds", () => {
  const rights = (role: number) => {
    signedInAs(role);
    return sessionShareRights();
  };
  test.each([
    [
      "an Administrator on an open quote",
      Role.ADMINISTRATOR,
      OPEN_QUOTE,
      { link: true, grant: true, pdf: true },
    ],
    [
      "an Administrator on a closed quote",
      Role.ADMINISTRATOR,
      CLOSED_QUOTE,
      { link: true, grant: false, pdf: true },
    ],
    ["an Administrator on an order", Role.ADMINISTRATOR, ORDER, { link: true, grant: true, pdf: false }],
    ["a Manager on an open quote", Role.MANAGER, OPEN_QUOTE, { link: true, grant: false, pdf: false }],
    ["a Billing user on an order", Role.BILLING, ORDER, { link: true, grant: false, pdf: false }],
    ["a Viewer on an open quote", Role.VIEWER, OPEN_QUOTE, { link: false, grant: false, pdf: false }],
    ["a Provisioner on an order", Role.PROVISIONER, ORDER, { link: false, grant: false, pdf: false }],
  ])("gives %s what spec section 6 allows", (_, role, target, expected) => {
    expect(shareChoices(target, rights(role))).toEqual(expected);
  });

  test("gives nobody anything when no one is signed in", () => {
    $session.set({ status: "anonymous" });
    expect(shareChoices(OPEN_QUOTE, sessionShareRights())).toEqual({ link: false, grant: false, pdf: false });
  });
});

describe("Get Link", () => {
  test("links a quote to its public page, and an order to the public page the server gave", () => {
    expect(shareLink(OPEN_QUOTE)).toBe(`${PAGE_ORIGIN}/p/quote/QUO-1001`);
    expect(shareLink({ ...ORDER, publicPath: "/p/order/ORD-5003-abc" })).toBe(
      `${PAGE_ORIGIN}/p/order/ORD-5003-abc`,
    );
  });

  test("links an order without a public path to its signed-in page", () => {
    expect(shareLink(ORDER)).toBe(`${PAGE_ORIGIN}/s/order/details/ORD-5003`);
  });

  test("copies the link and says 'Copied!' for two seconds", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    openLinkDialog(OPEN_QUOTE);
    await copyLink();
    expect(writeText).toHaveBeenCalledWith(`${PAGE_ORIGIN}/p/quote/QUO-1001`);
    expect($linkDialog.get().copy).toBe("copied");
    expect(COPIED).toBe("Copied!");
    vi.advanceTimersByTime(2000);
    expect($linkDialog.get().copy).toBe("idle");
  });

  test("says to copy by hand when the browser refuses the clipboard", async () => {
    vi.stubGlobal("navigator", {
      clipboard: { writeText: vi.fn(async () => Promise.reject(new Error("denied"))) },
    });
    openLinkDialog(ORDER);
    await copyLink();
    expect($linkDialog.get()).toMatchObject({ open: true, copy: "refused" });
  });

  test("links the quote's PDF on the web host", () => {
    $config.set({ ...CONFIG, webBase: "https://web.example" });
    expect(quotePdfHref(1001)).toBe("https://web.example/quote/requested-pdf/1001");
  });
});

describe("Grant Account Access", () => {
  test("sends the record and the address, then says 'Invite sent to {email}'", async () => {
    api.on(grantAccountAccess, {
      outcome: "invited",
      emailAddress: "pat@example.com",
      role: "Administrator",
    });
    openGrantDialog(ORDER);
    await submitGrant("  Pat@Example.com ");
    expect(api.calls(grantAccountAccess)[0]?.fields).toEqual({
      isQuote: "false",
      resourceId: "5003",
      emailAddress: "Pat@Example.com",
    });
    expect(api.calls(grantAccountAccess)[0]?.url).toBe("https://account.test/subscription/data/grant-access");
    expect($grantDialog.get().sent).toBe("Invite sent to Pat@Example.com");
    expect($grantForm.get()).toEqual({ busy: false, errors: [] });
  });

  test("names a quote as a quote", async () => {
    api.on(grantAccountAccess, { outcome: "added", emailAddress: "bill@example.com", role: "Billing" });
    openGrantDialog(OPEN_QUOTE);
    await submitGrant("bill@example.com");
    expect(api.calls(grantAccountAccess)[0]?.fields).toMatchObject({ isQuote: "true", resourceId: "1001" });
  });

  test("shows the server's reason beside the field or above the form", async () => {
    const bad = [{ field: "emailAddress", message: "Enter a valid email address." }];
    api.on(grantAccountAccess, { status: 400, errors: bad });
    openGrantDialog(ORDER);
    await submitGrant("nope");
    expect($grantForm.get().errors).toEqual(bad);
    expect($grantDialog.get().sent).toBeNull();
    const fed = [{ field: null, message: GRANT_ACCESS_MESSAGES.federated }];
    api.on(grantAccountAccess, { status: 403, errors: fed });
    await submitGrant("pat@example.com");
    expect($grantForm.get().errors).toEqual(fed);
  });

  test("says 'Unexpected Error.' when the server fails or no answer comes", async () => {
    const unexpected = [{ field: null, message: "Unexpected Error." }];
    api.on(grantAccountAccess, { status: 500, errors: [{ field: null, message: "Internal error." }] });
    openGrantDialog(ORDER);
    await submitGrant("pat@example.com");
    expect($grantForm.get().errors).toEqual(unexpected);
    api.on(grantAccountAccess, () => {
      throw new TypeError("Failed to fetch");
    });
    await submitGrant("pat@example.com");
    expect($grantForm.get().errors).toEqual(unexpected);
  });

  test("knows a federated subscription, which grants through its identity provider", () => {
    expect(federated()).toBe(false);
    signedInAs(Role.ADMINISTRATOR, true);
    expect(federated()).toBe(true);
  });
});
