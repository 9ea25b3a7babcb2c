import { timestamp } from "drizzle-orm/pg-core";

/** Every time is a timestamptz; the API turns them into epoch seconds where the spec says so. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => tz("created_at").notNull().defaultNow();
