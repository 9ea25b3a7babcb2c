import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TAG_NAME_CONTROL, TAG_NAME_ERROR } from "../../src/domain/tags.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { useTestApp } from "./helpers.ts";
import { rowsOf, subscriptionId } from "./ownership.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const FORBIDDEN = "You do not have permission to do that.";
const NO_SUCH_ID = 2_147_483_647;

type Tag = { id: number; name: string; subscriptionId: number; type: string; deviceCount: number };

describe("the tag API", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const as = async (email: string) => {
    const b = browser(ctx.app, ORIGIN);
    await signIn(b, email);
    return b;
  };
  const admin = () => as("admin@example.com");
  const acme = () => subscriptionId(db(), "Acme");

  /** Ids of the seeded rows by name. */
  const tagId = async (name: string) =>
    (await rowsOf<{ id: number }>(db(), sql`select id from tags where name = ${name}`))[0]!.id;
  const deviceId = async (name: string) =>
    (await rowsOf<{ id: number }>(db(), sql`select id from devices where name = ${name}`))[0]!.id;
  const tagsOf = async (device: number) =>
    (
      await rowsOf<{ name: string }>(
        db(),
        sql`select t.name from entity_tags e join tags t on t.id = e.tag_id
            where e.entity_type = 3 and e.entity_id = ${device} order by lower(t.name)`,
      )
    ).map((r) => r.name);
  const list = async (b: Browser): Promise<Tag[]> => (await (await b.get("/api/v1/tags")).json()).data;
  const create = async (b: Browser, tag: Record<string, unknown>, subscription?: number) =>
    b.json("/api/v1/tags", { subscriptionId: subscription ?? (await acme()), tag });
  const body = async (res: Response) => ({ status: res.status, body: await res.json() });

  describe("reading", () => {
    it("lists the active subscription's tags by name, each with its device count", async () => {
      const tags = await list(await admin());
      expect(tags.map((t) => [t.name, t.deviceCount])).toEqual([
        ["Critical", 1],
        ["Freezer", 1],
        ["Lab", 1],
        ["Warehouse", 1],
      ]);
      expect(tags.every((t) => t.type === "user-defined")).toBe(true);
      expect(new Set(tags.map((t) => t.subscriptionId))).toEqual(new Set([await acme()]));
    });

    it("shows another subscription's person only their own tags", async () => {
      const tags = await list(await as("owner@northwind.example.com"));
      expect(tags.map((t) => t.name)).toEqual(["Dock"]);
    });

    it("answers one tag, and another subscription's tag exactly like a missing one (404)", async () => {
      const lab = await tagId("Lab");
      expect((await body(await (await admin()).get(`/api/v1/tags/${lab}`))).body.data).toMatchObject({
        id: lab,
        name: "Lab",
        deviceCount: 1,
      });
      const other = await as("owner@northwind.example.com");
      const foreign = await other.get(`/api/v1/tags/${lab}`);
      const missing = await other.get(`/api/v1/tags/${NO_SUCH_ID}`);
      expect(await body(foreign)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await body(missing)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it("lets a Viewer read the tags", async () => {
      expect((await list(await as("viewer@example.com"))).length).toBe(4);
    });
  });

  describe("a Viewer", () => {
    it("is refused (403) every change: create, bulk, rename, delete and apply", async () => {
      const viewer = await as("viewer@example.com");
      const lab = await tagId("Lab");
      const device = await deviceId("Lab Base Station");
      const answers = [
        await create(viewer, { name: "Viewer tag" }),
        await viewer.json("/api/v1/tags/bulk/", { subscriptionId: await acme(), tagList: [{ name: "A" }] }),
        await viewer.json(
          `/api/v1/tags/${lab}`,
          { fields: { name: "Mine" }, patchFields: ["name"] },
          "PATCH",
        ),
        await viewer.delete(`/api/v1/tags/${lab}`),
        await viewer.json("/api/v1/tags/apply", {
          entityType: 3,
          entityIdList: [device],
          tagIdList: [],
          removedTagIdList: [lab],
        }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(403);
        expect((await res.json()).data[0].message).toBe(FORBIDDEN);
      }
      expect(await tagsOf(device)).toEqual(["Critical", "Lab"]);
      expect((await list(viewer)).map((t) => t.name)).toEqual(["Critical", "Freezer", "Lab", "Warehouse"]);
    });
  });

  describe("creating", () => {
    it("creates a trimmed tag in the active subscription and answers its id", async () => {
      const b = await admin();
      const res = await body(await create(b, { name: "  Cold Room  ", alertTagList: [], deviceTagList: [] }));
      expect(res.status).toBe(200);
      const made = (await list(b)).find((t) => t.id === res.body.data.id);
      expect(made).toMatchObject({ name: "Cold Room", deviceCount: 0, subscriptionId: await acme() });
    });

    it("puts the new tag on the devices of deviceTagList", async () => {
      const b = await admin();
      const device = await deviceId("Freezer Monitor");
      expect((await create(b, { name: "Audit", deviceTagList: [device, device] })).status).toBe(200);
      expect(await tagsOf(device)).toEqual(["Audit", "Freezer"]);
    });

    it.each([
      ["empty", ""],
      ["blank", "   "],
      ["101 characters", "x".repeat(101)],
      ["101 emoji", "😀".repeat(101)],
    ])("refuses a name that is %s with the spec's message", async (_, name) => {
      const res = await create(await admin(), { name });
      expect(await body(res)).toEqual({
        status: 400,
        body: { success: false, data: [{ field: "tag.name", message: TAG_NAME_ERROR }] },
      });
    });

    it("accepts 100 characters, counting an emoji as one", async () => {
      const b = await admin();
      expect((await create(b, { name: "x".repeat(100) })).status).toBe(200);
      expect((await create(b, { name: "😀".repeat(100) })).status).toBe(200);
    });

    it("refuses line breaks and control characters in a name", async () => {
      for (const name of ["Two\nlines", "Tab\there", "Bell\u0007"]) {
        const res = await body(await create(await admin(), { name }));
        expect(res).toEqual({
          status: 400,
          body: { success: false, data: [{ field: "tag.name", message: TAG_NAME_CONTROL }] },
        });
      }
    });

    it("refuses a name already in use, whatever its case (409, saying which)", async () => {
      const res = await body(await create(await admin(), { name: " lAB " }));
      expect(res).toEqual({
        status: 409,
        body: { success: false, data: [{ field: "tag.name", message: 'A tag named "lAB" already exists.' }] },
      });
    });

    it("lets another subscription have a tag of the same name", async () => {
      const other = await as("owner@northwind.example.com");
      const northwind = await subscriptionId(db(), "Northwind");
      expect((await create(other, { name: "Lab" }, northwind)).status).toBe(200);
    });

    it("creates one tag when the same name is sent several times at once", async () => {
      const b = await admin();
      const answers = await Promise.all(Array.from({ length: 5 }, () => create(b, { name: "Rush" })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect((await list(b)).filter((t) => t.name === "Rush")).toHaveLength(1);
    });

    it("refuses another subscription's id (even one the person belongs to) like a missing one", async () => {
      const b = await admin();
      const northwind = await subscriptionId(db(), "Northwind");
      expect(await body(await create(b, { name: "Elsewhere" }, northwind))).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await body(await create(b, { name: "Elsewhere" }, NO_SUCH_ID))).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect((await list(b)).some((t) => t.name === "Elsewhere")).toBe(false);
    });

    it("refuses another subscription's device in deviceTagList (404) and creates nothing", async () => {
      const b = await admin();
      const mine = await deviceId("Freezer Monitor");
      const theirs = await deviceId("Northwind Dock Station");
      expect(await body(await create(b, { name: "Sneaky", deviceTagList: [mine, theirs] }))).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect((await list(b)).some((t) => t.name === "Sneaky")).toBe(false);
      expect(await tagsOf(mine)).toEqual(["Freezer"]);
    });

    it("puts a new tag on the subscription's alert rules (alertTagList), never on another's", async () => {
      const b = await admin();
      const rule = await b.json("/api/v1/alerts/rules", {
        name: "Tagged rule",
        deviceId: await deviceId("Freezer Monitor"),
        condition: { type: "offline" },
        notify: {},
      });
      const ruleId = (await rule.json()).data.id as number;
      const res = await body(await create(b, { name: "Night shift", alertTagList: [ruleId] }));
      expect(res.status).toBe(200);
      const rules = (await (await b.get("/api/v1/alerts/rules")).json()).data.rules as {
        id: number;
        tagIds: number[];
      }[];
      expect(rules.find((r) => r.id === ruleId)!.tagIds).toEqual([res.body.data.id]);
      const other = browser(ctx.app, ORIGIN);
      await signIn(other, "owner@northwind.example.com");
      const foreign = await body(
        await other.json("/api/v1/tags", {
          subscriptionId: await subscriptionId(db(), "Northwind"),
          tag: { name: "Sneaky alerts", alertTagList: [ruleId] },
        }),
      );
      expect(foreign).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe("bulk creation", () => {
    const bulk = async (b: Browser, names: string[], subscription?: number) =>
      b.json("/api/v1/tags/bulk/", {
        subscriptionId: subscription ?? (await acme()),
        tagList: names.map((name) => ({ name })),
      });

    it("creates several tags at once and answers their ids in order", async () => {
      const b = await admin();
      const res = await body(await bulk(b, ["North", " South ", "East"]));
      expect(res.status).toBe(200);
      expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(["North", "South", "East"]);
      const names = (await list(b)).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["North", "South", "East"]));
    });

    it("creates none when one name is in use (409 naming it)", async () => {
      const b = await admin();
      const res = await body(await bulk(b, ["West", "freezer"]));
      expect(res).toEqual({
        status: 409,
        body: {
          success: false,
          data: [{ field: "tagList", message: 'A tag named "freezer" already exists.' }],
        },
      });
      expect((await list(b)).some((t) => t.name === "West")).toBe(false);
    });

    it("refuses a name the list holds twice, any case", async () => {
      const res = await body(await bulk(await admin(), ["Dup", "DUP"]));
      expect(res).toEqual({
        status: 400,
        body: { success: false, data: [{ field: "tagList", message: '"DUP" is in the list twice.' }] },
      });
    });

    it("refuses bad names, an empty list, more than 100 and another subscription", async () => {
      const b = await admin();
      const bad = await body(await bulk(b, ["ok", ""]));
      expect(bad.status).toBe(400);
      expect(bad.body.data[0]).toEqual({ field: "tagList.1.name", message: TAG_NAME_ERROR });
      expect((await bulk(b, [])).status).toBe(400);
      expect(
        (
          await bulk(
            b,
            Array.from({ length: 101 }, (_, i) => `T${i}`),
          )
        ).status,
      ).toBe(400);
      const northwind = await subscriptionId(db(), "Northwind");
      expect(await body(await bulk(b, ["Theirs"], northwind))).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe("changing", () => {
    const patch = (b: Browser, id: number, payload: unknown) =>
      b.json(`/api/v1/tags/${id}`, payload, "PATCH");

    it("renames a tag named in patchFields and answers it", async () => {
      const b = await admin();
      const lab = await tagId("Lab");
      const res = await body(
        await patch(b, lab, { fields: { name: " Laboratory " }, patchFields: ["name"] }),
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: lab, name: "Laboratory", deviceCount: 1 });
      expect(await tagsOf(await deviceId("Lab Base Station"))).toEqual(["Critical", "Laboratory"]);
    });

    it("changes only the fields patchFields names", async () => {
      const b = await admin();
      const lab = await tagId("Lab");
      const res = await body(await patch(b, lab, { fields: { name: "Ignored" }, patchFields: [] }));
      expect(res.status).toBe(200);
      expect(res.body.data.name).toBe("Lab");
    });

    it("lets a tag change the case of its own name", async () => {
      const lab = await tagId("Lab");
      const res = await body(
        await patch(await admin(), lab, { fields: { name: "LAB" }, patchFields: ["name"] }),
      );
      expect(res.body.data.name).toBe("LAB");
    });

    it("refuses a name another tag has (409), and bad names with the spec's message", async () => {
      const b = await admin();
      const lab = await tagId("Lab");
      expect(
        await body(await patch(b, lab, { fields: { name: "critical" }, patchFields: ["name"] })),
      ).toEqual({
        status: 409,
        body: {
          success: false,
          data: [{ field: "fields.name", message: 'A tag named "critical" already exists.' }],
        },
      });
      const empty = await body(await patch(b, lab, { fields: { name: " " }, patchFields: ["name"] }));
      expect(empty.body.data).toEqual([{ field: "fields.name", message: TAG_NAME_ERROR }]);
    });

    it("refuses unknown fields, and a named field without its value", async () => {
      const b = await admin();
      const lab = await tagId("Lab");
      const type = await body(await patch(b, lab, { fields: {}, patchFields: ["type"] }));
      expect(type.status).toBe(400);
      expect(type.body.data[0].message).toBe("Only name can be changed.");
      const missing = await body(await patch(b, lab, { fields: {}, patchFields: ["name"] }));
      expect(missing.body.data).toEqual([
        { field: "fields.name", message: "Send the new name in fields.name." },
      ]);
      expect((await patch(b, lab, { fields: { subscriptionId: 1 }, patchFields: [] })).status).toBe(400);
    });

    it("renames each of two tags to one name at the same moment only once", async () => {
      const b = await admin();
      const [lab, freezer] = [await tagId("Lab"), await tagId("Freezer")];
      const answers = await Promise.all(
        [lab, freezer].map((id) => patch(b, id, { fields: { name: "Same" }, patchFields: ["name"] })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it("answers another subscription's tag like a missing one (404) and leaves it", async () => {
      const other = await as("owner@northwind.example.com");
      const lab = await tagId("Lab");
      const payload = { fields: { name: "Taken over" }, patchFields: ["name"] };
      expect(await body(await patch(other, lab, payload))).toEqual({ status: 404, body: NOT_FOUND });
      expect(await body(await patch(other, NO_SUCH_ID, payload))).toEqual({ status: 404, body: NOT_FOUND });
      expect(await body(await other.delete(`/api/v1/tags/${lab}`))).toEqual({ status: 404, body: NOT_FOUND });
      expect(await tagId("Lab")).toBe(lab);
    });
  });

  describe("deleting", () => {
    it("deletes a tag and takes it off every device; a second delete is a 404", async () => {
      const b = await admin();
      const lab = await tagId("Lab");
      expect(await body(await b.delete(`/api/v1/tags/${lab}`))).toEqual({
        status: 200,
        body: { success: true, data: { id: lab } },
      });
      expect(await tagsOf(await deviceId("Lab Base Station"))).toEqual(["Critical"]);
      expect(await body(await b.delete(`/api/v1/tags/${lab}`))).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe("applying", () => {
    const apply = (b: Browser, payload: Record<string, unknown>) =>
      b.json("/api/v1/tags/apply", { entityType: 3, tagIdList: [], removedTagIdList: [], ...payload });

    it("adds the chosen tags and removes the removed ones on every device, answering their tags", async () => {
      const b = await admin();
      const [labDevice, freezer] = [await deviceId("Lab Base Station"), await deviceId("Freezer Monitor")];
      const [warehouse, critical] = [await tagId("Warehouse"), await tagId("Critical")];
      const res = await body(
        await apply(b, {
          entityIdList: [labDevice, freezer],
          tagIdList: [warehouse],
          removedTagIdList: [critical],
        }),
      );
      expect(res.status).toBe(200);
      expect(
        res.body.data.entityList.map((e: { entityId: number; tagList: { name: string }[] }) => [
          e.entityId,
          e.tagList.map((t) => t.name),
        ]),
      ).toEqual([
        [labDevice, ["Lab", "Warehouse"]],
        [freezer, ["Freezer", "Warehouse"]],
      ]);
      expect(await tagsOf(labDevice)).toEqual(["Lab", "Warehouse"]);
      const counts = Object.fromEntries((await list(b)).map((t) => [t.name, t.deviceCount]));
      expect(counts).toMatchObject({ Warehouse: 3, Critical: 0 });
    });

    it("gives the same result when sent twice", async () => {
      const b = await admin();
      const device = await deviceId("Freezer Monitor");
      const payload = { entityIdList: [device], tagIdList: [await tagId("Lab")] };
      await apply(b, payload);
      expect((await apply(b, payload)).status).toBe(200);
      expect(await tagsOf(device)).toEqual(["Freezer", "Lab"]);
    });

    it("refuses another subscription's device or tag (404, like a missing one) and changes nothing", async () => {
      const b = await admin();
      const mine = await deviceId("Freezer Monitor");
      const theirDevice = await deviceId("Northwind Dock Station");
      const theirTag = await tagId("Dock");
      const lab = await tagId("Lab");
      for (const payload of [
        { entityIdList: [mine, theirDevice], tagIdList: [lab] },
        { entityIdList: [mine], tagIdList: [lab, theirTag] },
        { entityIdList: [mine], removedTagIdList: [theirTag] },
        { entityIdList: [NO_SUCH_ID], tagIdList: [lab] },
      ])
        expect(await body(await apply(b, payload))).toEqual({ status: 404, body: NOT_FOUND });
      expect(await tagsOf(mine)).toEqual(["Freezer"]);
    });

    it("refuses other entity types, a tag both chosen and removed, and no entity", async () => {
      const b = await admin();
      const device = await deviceId("Freezer Monitor");
      const lab = await tagId("Lab");
      const alert = await body(await apply(b, { entityType: 1, entityIdList: [device], tagIdList: [lab] }));
      expect(alert.body.data).toEqual([
        { field: "entityType", message: "Only devices (entityType 3) can be tagged." },
      ]);
      const both = await body(
        await apply(b, { entityIdList: [device], tagIdList: [lab], removedTagIdList: [lab] }),
      );
      expect(both.body.data).toEqual([
        { field: "removedTagIdList", message: "A tag cannot be both chosen and removed." },
      ]);
      expect((await apply(b, { entityIdList: [] })).status).toBe(400);
    });

    it("lets a Manager apply tags", async () => {
      const manager = await as("manager@example.com");
      const device = await deviceId("Freezer Monitor");
      expect((await apply(manager, { entityIdList: [device], tagIdList: [await tagId("Lab")] })).status).toBe(
        200,
      );
    });
  });

  describe("bad input", () => {
    it.each([
      ["/api/v1/tags", "POST", { subscriptionId: "1", tag: { name: 5 } }],
      ["/api/v1/tags", "POST", { subscriptionId: 1e20, tag: null }],
      ["/api/v1/tags", "POST", { tag: { name: "x", deviceTagList: [0, -1, 2 ** 31] } }],
      ["/api/v1/tags/bulk/", "POST", { subscriptionId: 1, tagList: "Lab" }],
      ["/api/v1/tags/1", "PATCH", { fields: "name", patchFields: "name" }],
      ["/api/v1/tags/1e3", "PATCH", { fields: {}, patchFields: [] }],
      ["/api/v1/tags/apply", "POST", { entityType: "3", entityIdList: [1.5], tagIdList: null }],
      ["/api/v1/tags/apply", "POST", { entityType: 3, entityIdList: Array(1001).fill(1) }],
    ])("answers %s %s with a 400, never a 500", async (path, method, payload) => {
      const res = await (await admin()).json(path, payload, method);
      expect(res.status).toBe(400);
    });

    it("answers an id beyond int4 in the path with a 400 on the field", async () => {
      const res = await (await admin()).get("/api/v1/tags/2147483648");
      expect(await body(res)).toMatchObject({ status: 400, body: { data: [{ field: "id" }] } });
    });
  });
});
