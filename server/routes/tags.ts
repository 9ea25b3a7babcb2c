import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import {
  applyDeviceTags,
  createTag as insertTag,
  createTags as insertTags,
  deleteTag as removeTag,
  findTag,
  renameTag,
  subscriptionTags,
  type TagRow,
} from "../data/tags.ts";
import type { Auth } from "../data/auth.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import {
  applyTags,
  createTag,
  createTags,
  deleteTag,
  getTag,
  listTags,
  updateTag,
} from "../../src/api/tags.ts";
import { EntityType } from "../../src/domain/enums.ts";

/** The path's tag in the caller's subscription; another subscription's is a 404 (the role is the guard's). */
async function tagFor(deps: Deps, auth: Auth, id: number): Promise<TagRow> {
  const tag = await findTag(deps.db, id);
  if (!tag) throw new ApiError(404, NOT_FOUND);
  inSubscription(auth, tag);
  return tag;
}

/** Tags are made in the active subscription only; naming another looks like a missing one. */
function requireActive(auth: Auth, subscriptionId: number) {
  if (subscriptionId !== auth.subscription.id) throw new ApiError(404, NOT_FOUND);
}

/** The tag API of spec section 7, and applying tags to devices (POST /api/v1/tags/apply). */
export function tagRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .get(listTags.path, guard(listTags, deps), async (c) =>
      reply(c, listTags, await subscriptionTags(db, authOf(c).subscription.id)),
    )
    .get(getTag.path, guard(getTag, deps), async (c) =>
      reply(c, getTag, await tagFor(deps, authOf(c), idParam(c))),
    )
    .post(createTag.path, guard(createTag, deps), async (c) => {
      const { subscriptionId, tag } = await inputOf(c, createTag);
      requireActive(authOf(c), subscriptionId);
      const made = { name: tag.name, deviceIds: tag.deviceTagList ?? [], alertIds: tag.alertTagList ?? [] };
      const id = await audited(
        deps,
        (tx) => insertTag(tx, { subscriptionId, ...made }),
        (newId) => ({ ...byUser(authOf(c)), action: "tag.create", entityId: newId, after: made }),
      );
      return reply(c, createTag, { id });
    })
    .post(createTags.path, guard(createTags, deps), async (c) => {
      const { subscriptionId, tagList } = await inputOf(c, createTags);
      requireActive(authOf(c), subscriptionId);
      const names = tagList.map((t) => t.name);
      const created = await audited(deps, (tx) => insertTags(tx, subscriptionId, names), {
        ...byUser(authOf(c)),
        action: "tag.create",
        after: { names },
      });
      return reply(c, createTags, created);
    })
    .patch(updateTag.path, guard(updateTag, deps), async (c) => {
      const tag = await tagFor(deps, authOf(c), idParam(c));
      const { fields, patchFields } = await inputOf(c, updateTag);
      const name = fields.name;
      if (patchFields.includes("name") && name !== undefined && name !== tag.name)
        await audited(deps, (tx) => renameTag(tx, tag.id, name), {
          ...byUser(authOf(c)),
          action: "tag.rename",
          entityId: tag.id,
          before: { name: tag.name },
          after: { name },
        });
      return reply(c, updateTag, (await findTag(db, tag.id)) ?? tag);
    })
    .delete(deleteTag.path, guard(deleteTag, deps), async (c) => {
      const tag = await tagFor(deps, authOf(c), idParam(c));
      const removed = await audited(
        deps,
        (tx) => removeTag(tx, tag.id),
        (gone) => ({
          ...byUser(authOf(c)),
          action: "tag.delete",
          entityId: tag.id,
          before: gone ? { name: tag.name } : null,
          after: null,
        }),
      );
      if (!removed) throw new ApiError(404, NOT_FOUND);
      return reply(c, deleteTag, { id: tag.id });
    })
    .post(applyTags.path, guard(applyTags, deps), async (c) => {
      const input = await inputOf(c, applyTags);
      const change = { deviceIds: input.entityIdList, add: input.tagIdList, remove: input.removedTagIdList };
      const entityList = await audited(
        deps,
        (tx) => applyDeviceTags(tx, { subscriptionId: authOf(c).subscription.id, ...change }),
        {
          ...byUser(authOf(c)),
          action: "tag.apply",
          entityType: EntityType.DEVICE,
          deviceId: input.entityIdList.length === 1 ? input.entityIdList[0]! : null,
          after: { devices: change.deviceIds, added: change.add, removed: change.remove },
        },
      );
      return reply(c, applyTags, { entityList });
    });
}
