import { describe, expect, it, vi } from "vitest";
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
    expect(() => parseConfig({ MAIL_RETENTION_DAYS: "0" })).toThrow(/MAIL_RETENTION_DAYS/);
  });

  it("keeps mail 30 days unless MAIL_RETENTION_DAYS says otherwise", () => {
    expect(parseConfig({}).mailRetentionDays).toBe(30);
    expect(parseConfig({ MAIL_RETENTION_DAYS: "7" }).mailRetentionDays).toBe(7);
  });

  it("keeps audit anchors beside the data, one file per PostgreSQL database, unless told where or off", () => {
    expect(parseConfig({}).auditAnchorFile).toBe("data/audit-anchors.jsonl");
    const pg = "postgres://u:p@db.example:5432/portal%20one";
    expect(parseConfig({ DATABASE_URL: pg, DATA_DIR: "/var/portal" }).auditAnchorFile).toBe(
      "/var/portal/audit-anchors-portal_one.jsonl",
    );
    expect(parseConfig({ AUDIT_ANCHOR_FILE: "/mnt/worm/anchors" }).auditAnchorFile).toBe("/mnt/worm/anchors");
    expect(parseConfig({ AUDIT_ANCHOR_FILE: "off" }).auditAnchorFile).toBeUndefined();
    expect(parseConfig({}).auditAnchorMs).toBe(10_000);
    expect(() => parseConfig({ AUDIT_ANCHOR_MS: "5" })).toThrow(/AUDIT_ANCHOR_MS/);
  });

  it("drops aged months daily unless DATA_RETENTION_INTERVAL_MS says otherwise (0 turns it off)", () => {
    expect(parseConfig({}).dataRetentionIntervalMs).toBe(86_400_000);
    expect(parseConfig({ DATA_RETENTION_INTERVAL_MS: "0" }).dataRetentionIntervalMs).toBe(0);
    expect(parseConfig({ DATA_RETENTION_INTERVAL_MS: "3600000" }).dataRetentionIntervalMs).toBe(3_600_000);
    expect(() => parseConfig({ DATA_RETENTION_INTERVAL_MS: "-1" })).toThrow(/DATA_RETENTION_INTERVAL_MS/);
  });

  it("keeps the default demo on this computer: demo mode answers loopback clients only", () => {
    for (const HOST of ["127.0.0.1", "localhost", "::1"]) {
      const c = parseConfig({ HOST });
      expect([HOST, c.demo, c.demoLocalOnly]).toEqual([HOST, true, true]);
    }
    expect(parseConfig({ DEMO: "1" }).demoLocalOnly).toBe(false);
  });

  it("refuses demo mode on a non-loopback HOST unless DEMO=1 says so", () => {
    const served = { HOST: "0.0.0.0", PUBLIC_ORIGIN: "https://portal.example" };
    expect(() => parseConfig(served)).toThrow(/HOST: 0\.0\.0\.0 .*DEMO=1/);
    expect(() => parseConfig({ ...served, HOST: "::" })).toThrow(/DEMO=1/);
    expect(() => parseConfig({ ...served, HOST: "192.168.1.5" })).toThrow(/DEMO=1/);
    expect(parseConfig({ ...served, DEMO: "1" }).demo).toBe(true);
    expect(parseConfig({ ...served, DEMO: "0" }).demo).toBe(false);
    expect(parseConfig({ ...served, DATABASE_URL: "postgres://x@localhost/db" }).demo).toBe(false);
  });

  it("refuses the default demo behind a name of another machine", () => {
    expect(() => parseConfig({ PUBLIC_ORIGIN: "https://portal.example" })).toThrow(/PUBLIC_ORIGIN: .*DEMO=1/);
    expect(() => parseConfig({ ALLOWED_HOSTS: "portal.example" })).toThrow(/ALLOWED_HOSTS: .*DEMO=1/);
    expect(parseConfig({ ACCOUNT_ORIGIN: "http://accounts.localhost:4412" }).demo).toBe(true);
  });

  it("needs the public address when HOST serves other machines", () => {
    expect(() => parseConfig({ HOST: "0.0.0.0", DEMO: "0" })).toThrow(/PUBLIC_ORIGIN: .*HOST=0\.0\.0\.0/);
    expect(() => parseConfig({ HOST: "0.0.0.0", DEMO: "0", ALLOWED_HOSTS: "portal.example" })).toThrow(
      /PUBLIC_ORIGIN/,
    );
    expect(parseConfig({ HOST: "0.0.0.0", DEMO: "0", ACCOUNT_ORIGIN: "https://accounts.example" }).host).toBe(
      "0.0.0.0",
    );
  });

  it("reads ALLOWED_HOSTS and says which entry is wrong", () => {
    expect(parseConfig({ ALLOWED_HOSTS: " a.localhost:8080 ,B.Localhost,," }).allowedHosts).toEqual([
      "a.localhost:8080",
      "b.localhost",
    ]);
    expect(parseConfig({}).allowedHosts).toEqual([]);
    expect(() => parseConfig({ DEMO: "0", ALLOWED_HOSTS: "ok.example,https://bad.example/x" })).toThrow(
      /ALLOWED_HOSTS: "https:\/\/bad.example\/x" is not a host name/,
    );
    expect(() => parseConfig({ DEMO: "0", ALLOWED_HOSTS: "*" })).toThrow(
      /ALLOWED_HOSTS: "\*" is not a host name/,
    );
    expect(() => parseConfig({ API_ORIGIN: "https://a b.example" })).toThrow(/API_ORIGIN: must be an origin/);
  });

  it("runs the simulator only in demo mode, which alone accepts the demo device keys", () => {
    expect(parseConfig({ DEMO: "0" }).simulator).toBe(false);
    expect(parseConfig({ SIMULATOR: "0" }).simulator).toBe(false);
    expect(() => parseConfig({ DEMO: "0", SIMULATOR: "1" })).toThrow(/SIMULATOR: .*demo mode/);
  });

  it("writes request lines except in the local demo, where they would push the banner's links away", () => {
    vi.stubEnv("VITEST", "");
    try {
      expect(parseConfig({}).logRequests).toBe(false);
      expect(parseConfig({ LOG_REQUESTS: "1" }).logRequests).toBe(true);
      expect(parseConfig({ DEMO: "1", PUBLIC_ORIGIN: "http://localhost:4321" }).logRequests).toBe(true);
      expect(parseConfig({ DEMO: "0" }).logRequests).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
