import type { Db } from "../db/client.ts";
import {
  accountMessageViews,
  accountMessages,
  links,
  subscriptions,
  tags,
  userAssignments,
  users,
} from "../db/schema/index.ts";
import { hashPassword } from "../services/passwords.ts";
import { Role } from "../../src/domain/roles.ts";
import { DEMO_PASSWORD, DEMO_USERS, OTHER_SUBSCRIPTION_USER } from "./demo.ts";

const PRO_LIMITS = {
  users: 25,
  devices: 100,
  alerts: 200,
  reports: 50,
  computedChannels: 20,
  connectors: 5,
  legacyDevices: 10,
  transferredDevices: 10,
  archivedDevices: 50,
  dataAgeLimitUnit: "YEAR",
  dataAgeLimitValue: 2,
};
const PRO_FEATURES = {
  csvExport: true,
  publicUrl: true,
  supportLevel: "priority",
  advancedAlerting: true,
  cameraMonitoring: false,
  plugins: true,
  reportRanges: true,
};

/** Two subscriptions, a user per role, messages, a link and tags. Returns their ids. */
let demoHash: Promise<string> | null = null;
/**
 * The demo password's hash, made once per process: its salt is random anyway, and scrypt's
 * cost (deliberately high) would otherwise be paid by every test that re-seeds.
 */
function demoPasswordHash(): Promise<string> {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  return demoHash;
}

export async function seedAccounts(db: Db, now: Date) {
  const [acme] = await db
    .insert(subscriptions)
    .values({
      name: "Acme Labs",
      tierName: "Professional",
      limits: PRO_LIMITS,
      features: PRO_FEATURES,
      supportsRoles: true,
      advancedRoles: true,
      crmOrgId: 7000,
    })
    .returning();
  const [northwind] = await db
    .insert(subscriptions)
    .values({
      name: "Northwind Cold Storage",
      tierName: "Basic",
      limits: { ...PRO_LIMITS, users: 5, devices: 10, reports: 5, dataAgeLimitValue: 1 },
      features: {
        ...PRO_FEATURES,
        csvExport: false,
        supportLevel: "standard",
        plugins: false,
        reportRanges: false,
      },
      supportsRoles: true,
      advancedRoles: false,
      crmOrgId: 7100,
    })
    .returning();
  const hash = await demoPasswordHash();
  const userIds: number[] = [];
  for (const u of DEMO_USERS) {
    const [row] = await db
      .insert(users)
      .values({
        email: u.email,
        firstName: u.first,
        lastName: u.last,
        passwordHash: hash,
        activeSubscriptionId: acme!.id,
        emailVerifiedAt: now,
        termsAcceptedAt: u.termsAccepted ? now : null,
        temperatureScale: "C",
        timezone: u.role === Role.ADMINISTRATOR ? "America/New_York" : "UTC",
      })
      .returning();
    await db.insert(userAssignments).values({ userId: row!.id, subscriptionId: acme!.id, roleId: u.role });
    userIds.push(row!.id);
  }
  // The administrator also belongs to the second subscription, as a viewer.
  await db
    .insert(userAssignments)
    .values({ userId: userIds[0]!, subscriptionId: northwind!.id, roleId: Role.VIEWER });
  const [owner] = await db
    .insert(users)
    .values({
      email: OTHER_SUBSCRIPTION_USER.email,
      firstName: OTHER_SUBSCRIPTION_USER.first,
      lastName: OTHER_SUBSCRIPTION_USER.last,
      passwordHash: hash,
      activeSubscriptionId: northwind!.id,
      emailVerifiedAt: now,
      termsAcceptedAt: now,
    })
    .returning();
  await db
    .insert(userAssignments)
    .values({ userId: owner!.id, subscriptionId: northwind!.id, roleId: Role.ADMINISTRATOR });

  const day = 86_400_000;
  const messages = await db
    .insert(accountMessages)
    .values([
      {
        subscriptionId: acme!.id,
        title: "Scheduled maintenance",
        body: "The portal will be read-only on Sunday from 02:00 to 03:00 UTC.",
        timeCreated: new Date(now.getTime() - 3 * day),
      },
      {
        subscriptionId: acme!.id,
        title: "New firmware available",
        body: "Firmware 4.2.1 improves battery life of wireless sensors.",
        timeCreated: new Date(now.getTime() - 1 * day),
      },
      {
        subscriptionId: acme!.id,
        title: "Welcome to the portal",
        body: "Your devices, quotes and orders are all here.",
        timeCreated: new Date(now.getTime() - 30 * day),
      },
      {
        subscriptionId: northwind!.id,
        title: "Northwind notice",
        body: "Only Northwind users see this.",
        timeCreated: new Date(now.getTime() - 2 * day),
      },
    ])
    .returning();
  await db
    .insert(accountMessageViews)
    .values({ messageId: messages[2]!.id, userId: userIds[0]!, timeViewed: now });

  const [labLink] = await db
    .insert(links)
    .values({ subscriptionId: acme!.id, name: "Lab Network Link" })
    .returning();
  const tagRows = await db
    .insert(tags)
    .values(["Freezer", "Lab", "Warehouse", "Critical"].map((name) => ({ subscriptionId: acme!.id, name })))
    .returning();
  await db.insert(tags).values({ subscriptionId: northwind!.id, name: "Dock" });
  return {
    acmeId: acme!.id,
    northwindId: northwind!.id,
    userIds,
    labLinkId: labLink!.id,
    tagIds: tagRows.map((t) => t.id),
  };
}
