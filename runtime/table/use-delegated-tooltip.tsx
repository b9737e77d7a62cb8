import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Tooltip } from '@mantine/core';

/** Opts an element in to the delegated tooltip; the attribute's value is the tooltip's text. */
export const TOOLTIP_ATTRIBUTE = 'data-tooltip';

/** The delays the per-button tooltips had (docs/product-rules.md#constants feel: no tooltip on a quick pass). */
const OPEN_DELAY_MS = 300;
const CLOSE_DELAY_MS = 250;

export interface DelegatedTooltip {
  /** Spread on the container whose descendants carry TOOLTIP_ATTRIBUTE. */
  handlers: {
    onPointerOver: (event: PointerEvent) => void;
    onPointerOut: (event: PointerEvent) => void;
    onPointerDown: () => void;
  };
  /** The one tooltip, to render anywhere (it portals). */
  tooltip: ReactNode;
}

/**
 * One Mantine tooltip for every element of a container that carries TOOLTIP_ATTRIBUTE, opened by
 * hover through event delegation. A table of 100 rows with three action buttons each had 300
 * Tooltip instances (floating-ui hooks and effects apiece), which cost more to mount than the rows.
 */
export function useDelegatedTooltip(): DelegatedTooltip {
  const [anchor, setAnchor] = useState<{ target: HTMLElement; label: string } | null>(null);
  const [opened, setOpened] = useState(false);
  const hovered = useRef<HTMLElement | null>(null);
  const visible = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const show = useCallback((target: HTMLElement) => {
    visible.current = true;
    setAnchor({ target, label: target.getAttribute(TOOLTIP_ATTRIBUTE) ?? '' });
    setOpened(true);
  }, []);
  const hide = useCallback(() => {
    visible.current = false;
    setOpened(false);
  }, []);

  const handlers = useMemo<DelegatedTooltip['handlers']>(
    () => ({
      onPointerOver(event) {
        if (event.pointerType === 'touch' || !(event.target instanceof Element)) return;
        const target = event.target.closest<HTMLElement>(`[${TOOLTIP_ATTRIBUTE}]`);
        if (!target || target === hovered.current) return;
        hovered.current = target;
        window.clearTimeout(timer.current);
        // Moving from one button to the next while a tooltip shows switches it at once.
        if (visible.current) show(target);
        else timer.current = window.setTimeout(() => show(target), OPEN_DELAY_MS);
      },
      onPointerOut(event) {
        const from = hovered.current;
        if (!from || (event.relatedTarget instanceof Node && from.contains(event.relatedTarget))) return;
        hovered.current = null;
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(hide, CLOSE_DELAY_MS);
      },
      // A click opens a dialog or runs the action: the tooltip has done its job.
      onPointerDown() {
        window.clearTimeout(timer.current);
        hide();
      },
    }),
    [show, hide],
  );

  const tooltip = anchor ? <Tooltip target={anchor.target} label={anchor.label} opened={opened} /> : null;
  return { handlers, tooltip };
}
