/** Sensor or adapter label maximum length. */
export const LABEL_MAX = 50;

/** An editable title saves only when non-empty and changed; text is trimmed. */
export function titleToSave(draft: string, current: string): string | null {
  const next = draft.trim();
  return next !== "" && next !== current ? next : null;
}
