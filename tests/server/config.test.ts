import { describe, expect, it } from "vitest";
import { parseConfig, runtimeConfig } from "../../server/config.ts";

describe("configuration", () => {
  it("defaults to one origin, port 4321, ./data and demo data on the embedded database", () => {
    const c = parseConfig({});
    expect(c.port).toBe(4321);
    expect(c.dataDir).toBe("./data");
    expect(c.demo).toBe(true);
    expect(c.simulator).toBe(true);
    expect(runtimeConfig(c)).toEqual({ apiBase: "", webBase: "", accountBase: "", wsBase: "" });
  });

  it("turns demo data off by default on PostgreSQL", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://x@localhost/db" }).demo).toBe(false);
    expect(parseConfig({ DATABASE_URL: "postgres://x@localhost/db", DEMO: "1" }).demo).toBe(true);
  });

  it("says which setting is wrong", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseConfig({ API_ORIGIN: "api.example.com/path" })).toThrow(
      /API_ORIGIN: must be an origin/,
    );
    expect(() => parseConfig({ DEMO: "maybe" })).toThrow(/DEMO/);
  });
});
