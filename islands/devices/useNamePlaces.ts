import { useLayoutEffect, useState, type RefObject } from "react";

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The pins (by their `data-id`) whose name would cover an earlier pin or its name: those show
 * their dot only (the name stays in the link's label). Measured after each layout and resize;
 * a hidden name keeps its room (visibility), so hiding never changes what is measured.
 */
export function useCrowdedNames(
  list: RefObject<HTMLUListElement | null>,
  layoutKey: string,
): ReadonlySet<string> {
  const [crowded, setCrowded] = useState<ReadonlySet<string>>(new Set());
  useLayoutEffect(() => {
    const ul = list.current;
    if (!ul) return;
    const measure = () => {
      const kept: DOMRect[] = [];
      const next = new Set<string>();
      for (const pin of ul.querySelectorAll<HTMLElement>("[data-id]")) {
        const whole = pin.getBoundingClientRect();
        if (kept.some((r) => overlaps(r, whole))) {
          next.add(pin.dataset["id"]!);
          kept.push(pin.querySelector(".dot")!.getBoundingClientRect());
        } else kept.push(whole);
      }
      setCrowded((prev) => (prev.size === next.size && [...next].every((id) => prev.has(id)) ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(ul);
    return () => observer.disconnect();
  }, [list, layoutKey]);
  return crowded;
}
