import { Hono, type Context } from "hono";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { idParam, inputOf } from "../http/input.ts";
import { idempotencyKeyOf, opsTokenOfRequest } from "../http/opsAuth.ts";
import { reply } from "../http/reply.ts";
import { closeOpsQuote, createOpsQuote, updateOpsQuote } from "../data/opsQuotes.ts";
import { addTrackingActivity, recordOfflinePayment, shipOrder } from "../data/opsOrders.ts";
import { onceByKey, requestFingerprint } from "../data/opsWrites.ts";
import { appendAudit } from "../data/audit.ts";
import { recordSubscription } from "../data/grantAccess.ts";
import type { Endpoint, InputOf, ResponseOf } from "../../src/api/endpoint.ts";
import * as ops from "../../src/api/ops.ts";

/** A transaction handle: the database type, named through Deps (routes do not import db/). */
type Db = Deps["db"];
/** The quote or order a back-office write concerns, whose subscription's chain takes its row. */
type OpsRecord = { kind: "quote" | "order"; id: number };

/**
 * The back-office operations API (src/api/ops.ts): every route behind an ops token (`guard`),
 * every write once per Idempotency-Key. The input is validated before the key is looked at,
 * so bad input is a 400 whatever the key; the key then covers method, path and input.
 */
export function opsRoutes(deps: Deps) {
  const write =
    <E extends Endpoint>(
      endpoint: E,
      run: (tx: Db, input: InputOf<E>, c: Context, key: string) => Promise<ResponseOf<E>>,
      audit: { action: string; record?: (c: Context, answer: ResponseOf<E>) => OpsRecord | null },
    ) =>
    async (c: Context) => {
      const input = await inputOf(c, endpoint);
      const key = idempotencyKeyOf(c);
      const answer = await onceByKey(
        deps.db,
        {
          key,
          fingerprint: requestFingerprint(c.req.method, c.req.path, input),
          tokenId: opsTokenOfRequest(c).id,
          now: deps.now(),
        },
        async (tx) => {
          const written = await run(tx, input, c, key);
          // The back office's write and its audit row commit together, in the record's chain.
          const record = audit.record?.(c, written) ?? null;
          await appendAudit(
            tx,
            {
              subscriptionId: record
                ? ((await recordSubscription(tx, record.kind, record.id))?.subscriptionId ?? null)
                : null,
              actor: { kind: "ops", id: opsTokenOfRequest(c).id, label: opsTokenOfRequest(c).name },
              action: audit.action,
              entityId: record ? `${record.kind}:${record.id}` : null,
              always: true,
              after: input && typeof input === "object" ? (input as Record<string, unknown>) : null,
            },
            deps.now(),
            deps.config.auditKey,
          );
          return written;
        },
      );
      return reply(c, endpoint, answer);
    };
  return new Hono()
    .post(
      ops.createOpsQuote.path,
      guard(ops.createOpsQuote, deps),
      write(ops.createOpsQuote, (tx, q) => createOpsQuote(tx, q, deps.now()), {
        action: "ops.quote.create",
        record: (_c, a) => ({ kind: "quote", id: a.id }),
      }),
    )
    .patch(
      ops.updateOpsQuote.path,
      guard(ops.updateOpsQuote, deps),
      write(ops.updateOpsQuote, (tx, q, c) => updateOpsQuote(tx, idParam(c, "quoteId"), q), {
        action: "ops.quote.change",
        record: (_c, a) => ({ kind: "quote", id: a.id }),
      }),
    )
    .post(
      ops.closeOpsQuote.path,
      guard(ops.closeOpsQuote, deps),
      write(ops.closeOpsQuote, (tx, _none, c) => closeOpsQuote(tx, idParam(c, "quoteId")), {
        action: "ops.quote.close",
        record: (_c, a) => ({ kind: "quote", id: a.id }),
      }),
    )
    .post(
      ops.shipOpsOrder.path,
      guard(ops.shipOpsOrder, deps),
      write(ops.shipOpsOrder, (tx, s, c) => shipOrder(tx, idParam(c, "orderId"), s, deps.now()), {
        action: "ops.order.ship",
        record: (c) => ({ kind: "order", id: idParam(c, "orderId") }),
      }),
    )
    .post(
      ops.addOpsTrackingActivity.path,
      guard(ops.addOpsTrackingActivity, deps),
      write(
        ops.addOpsTrackingActivity,
        (tx, a, c) => addTrackingActivity(tx, c.req.param("trackingNumber") ?? "", a),
        { action: "ops.tracking.add" },
      ),
    )
    .post(
      ops.recordOpsPayment.path,
      guard(ops.recordOpsPayment, deps),
      write(
        ops.recordOpsPayment,
        (tx, p, c, key) => recordOfflinePayment(tx, idParam(c, "orderId"), p, key, deps.now()),
        { action: "ops.order.payment", record: (c) => ({ kind: "order", id: idParam(c, "orderId") }) },
      ),
    );
}
