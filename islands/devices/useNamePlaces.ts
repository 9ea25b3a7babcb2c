import { useLayoutEffect, useState, type RefObject } from "react";

/** Where a pin's name goes: right of its dot, left of it, or nowhere (the dot alone). */
export type NamePlace = "right" | "left" | "crowded";

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const same = (a: ReadonlyMap<string, NamePlace>, b: ReadonlyMap<string, NamePlace>) =>
  a.size === b.size && [...a].every(([id, place]) => b.get(id) === place);

/**
 * Places the pins' names (pins by their `data-id`, in order): right of the dot when that fits
 * inside the map and covers no dot and no name placed before, else left of it, else not at all
 * (the name stays in the link's label). Measured after each layout and resize; a pin's size is the same
 * wherever its name goes, so placing never changes what is measured.
 */
export function useNamePlaces(
  list: RefObject<HTMLUListElement | null>,
  layoutKey: string,
): ReadonlyMap<string, NamePlace> {
  const [places, setPlaces] = useState<ReadonlyMap<string, NamePlace>>(new Map());
  useLayoutEffect(() => {
    const ul = list.current;
    const frame = ul?.parentElement;
    if (!ul || !frame) return;
    const measure = () => {
      const bounds = frame.getBoundingClientRect();
      const pins = [...ul.querySelectorAll<HTMLElement>("[data-id]")];
      const dots = pins.map((pin) => pin.querySelector(".dot")!.getBoundingClientRect());
      // Every dot is in the way from the start; names placed earlier join them.
      const kept: Box[] = [];
      const next = new Map<string, NamePlace>();
      pins.forEach((pin, i) => {
        const { width, top, bottom } = pin.getBoundingClientRect();
        const dot = dots[i]!;
        const others = [...dots.filter((_, j) => j !== i), ...kept];
        const options: [NamePlace, Box][] = [
          ["right", { left: dot.left, right: dot.left + width, top, bottom }],
          ["left", { left: dot.right - width, right: dot.right, top, bottom }],
        ];
        const fits = options.find(
          ([, box]) =>
            box.left >= bounds.left && box.right <= bounds.right && !others.some((k) => overlaps(k, box)),
        );
        next.set(pin.dataset["id"]!, fits ? fits[0] : "crowded");
        if (fits) kept.push(fits[1]);
      });
      setPlaces((prev) => (same(prev, next) ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    return () => observer.disconnect();
    // layoutKey is not read here: a new key (zoom, width) means the pins moved, so measure again.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [list, layoutKey]);
  return places;
}
