import * as z from "zod/mini";
import { EntityType } from "../domain/enums.ts";
import { TAG_NAME_CONTROL, TAG_NAME_ERROR, tagNameError, tagNameHasControl } from "../domain/tags.ts";
import { TagRefSchema } from "./devices.ts";
import { endpoint } from "./endpoint.ts";
import { idField } from "./fields.ts";

/** Ids in one list: enough for any screen of devices, small enough for one statement. */
export const MAX_IDS = 1000;
/** New tags in one bulk call. */
export const MAX_BULK = 100;

/** A tag's name: trimmed, 1 to 100 characters, one line. */
export const tagNameField = z.string({ error: TAG_NAME_ERROR }).check(
  z.trim(),
  z.refine((n) => tagNameError(n) === null, TAG_NAME_ERROR),
  z.refine((n) => !tagNameHasControl(n), TAG_NAME_CONTROL),
);

/** A list of record ids, repeats allowed (they count once). */
const idList = (what: string, min = 0) =>
  z
    .array(idField, { error: `${what} must be a list of ids.` })
    .check(
      z.minLength(min, `Name at least ${min} ${what}.`),
      z.maxLength(MAX_IDS, `At most ${MAX_IDS} ids in ${what}.`),
    );

/** Spec section 3, Tag, with how many of the subscription's devices carry it. */
export const TagSchema = z.object({
  id: z.number(),
  name: z.string(),
  subscriptionId: z.number(),
  type: z.string(),
  deviceCount: z.number(),
});
export type Tag = z.infer<typeof TagSchema>;

/** A tag as an entity carries it (the device contract's tag reference). */
export type TagRef = z.infer<typeof TagRefSchema>;

export const listTags = endpoint({
  method: "get",
  path: "/api/v1/tags",
  host: "api",
  body: "none",
  request: undefined,
  response: z.array(TagSchema),
  summary: "The active subscription's tags, by name, each with its device count.",
});

export const getTag = endpoint({
  method: "get",
  path: "/api/v1/tags/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: TagSchema,
  summary: "One tag of the active subscription.",
});

export const createTag = endpoint({
  method: "post",
  path: "/api/v1/tags",
  host: "api",
  body: "json",
  request: z.strictObject({
    subscriptionId: idField,
    tag: z.strictObject({
      name: tagNameField,
      /** Alert rules of the subscription to carry the tag (entity type ALERT). */
      alertTagList: z.optional(idList("alertTagList")),
      deviceTagList: z.optional(idList("deviceTagList")),
    }),
  }),
  response: z.object({ id: z.number() }),
  summary:
    "Creates a tag in the active subscription (subscriptionId must be it), optionally on the devices of deviceTagList; 409 when the name exists (case-insensitive).",
});

export const PATCHABLE_TAG_FIELDS = ["name"] as const;

export const updateTag = endpoint({
  method: "patch",
  path: "/api/v1/tags/:id",
  host: "api",
  body: "json",
  request: z
    .strictObject({
      fields: z.strictObject({ name: z.optional(tagNameField) }),
      patchFields: z
        .array(z.enum(PATCHABLE_TAG_FIELDS, { error: "Only name can be changed." }))
        .check(z.maxLength(PATCHABLE_TAG_FIELDS.length, "Name each field once in patchFields.")),
    })
    .check(
      z.refine((p) => !p.patchFields.includes("name") || p.fields.name !== undefined, {
        message: "Send the new name in fields.name.",
        path: ["fields", "name"],
      }),
    ),
  response: TagSchema,
  summary: "Changes the fields patchFields names (name: the same rules as a new tag); the others stay.",
});

export const createTags = endpoint({
  method: "post",
  path: "/api/v1/tags/bulk/",
  host: "api",
  body: "json",
  request: z.strictObject({
    subscriptionId: idField,
    tagList: z
      .array(z.strictObject({ name: tagNameField }))
      .check(
        z.minLength(1, "Name at least one tag."),
        z.maxLength(MAX_BULK, `At most ${MAX_BULK} tags at once.`),
      ),
  }),
  response: z.array(TagRefSchema),
  summary:
    "Creates several tags at once, all or none; a name twice in the list or already in use is refused (409).",
});

export const deleteTag = endpoint({
  method: "delete",
  path: "/api/v1/tags/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ id: z.number() }),
  summary: "Deletes the tag and takes it off every device that carried it.",
});

export const EntityTagsSchema = z.object({ entityId: z.number(), tagList: z.array(TagRefSchema) });
export type EntityTags = z.infer<typeof EntityTagsSchema>;

export const applyTags = endpoint({
  method: "post",
  path: "/api/v1/tags/apply",
  host: "api",
  body: "json",
  request: z
    .strictObject({
      entityType: z.literal(EntityType.DEVICE, { error: "Only devices (entityType 3) can be tagged." }),
      entityIdList: idList("entityIdList", 1),
      tagIdList: idList("tagIdList"),
      removedTagIdList: idList("removedTagIdList"),
    })
    .check(
      z.refine((p) => !p.tagIdList.some((id) => p.removedTagIdList.includes(id)), {
        message: "A tag cannot be both chosen and removed.",
        path: ["removedTagIdList"],
      }),
    ),
  response: z.object({ entityList: z.array(EntityTagsSchema) }),
  summary:
    "Puts the tags of tagIdList on every entity and takes those of removedTagIdList off (the spec leaves this path open); answers each entity's tags.",
});
