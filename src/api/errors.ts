import * as z from "zod/mini";

/** The spec's error shape: a list of field/message entries (field null for the whole form). */
export const FieldErrorSchema = z.object({ field: z.nullable(z.string()), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** Every failure: `{success: false, data: [{field, message}]}` with a 4xx or 5xx status. */
export const ErrorEnvelope = z.object({ success: z.literal(false), data: z.array(FieldErrorSchema) });

/** Every success: `{success: true, data}`. */
export const okEnvelope = <T extends z.ZodMiniType>(data: T) => z.object({ success: z.literal(true), data });

/** The first message for a field, as the spec shows server errors beside fields. */
export function fieldError(errors: readonly FieldError[], field: string): string | undefined {
  return errors.find((e) => e.field === field)?.message;
}

/** Messages that belong to no field of the form. */
export function generalErrors(errors: readonly FieldError[], fields: readonly string[]): string[] {
  return errors.filter((e) => e.field === null || !fields.includes(e.field)).map((e) => e.message);
}
