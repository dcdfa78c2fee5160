import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether a box scrolls sideways, and whether there is more to its left and to its right: a list's table
 * (ListTable) and a printed document's table (TableBlock) become a focusable, named region when it does.
 * A module of its own, so the print pages' chunk does not carry the lists' code.
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>) {
  const [edges, setEdges] = useState({ scrolls: false, start: false, end: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      const next = {
        scrolls,
        start: scrolls && box.scrollLeft > 1,
        end: scrolls && box.scrollLeft + box.clientWidth < box.scrollWidth - 1,
      };
      setEdges((was) =>
        was.scrolls === next.scrolls && was.start === next.start && was.end === next.end ? was : next,
      );
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(box);
    if (box.firstElementChild) observer?.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [ref]);
  return edges;
}
