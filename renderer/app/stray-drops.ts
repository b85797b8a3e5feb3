/**
 * A file dropped anywhere but on a place that takes it (the composer) must not be opened by the
 * window: a browser tab would navigate to it and leave the workbench. Drop zones handle their drops
 * first (React's listeners sit below the window) and mark them handled with `preventDefault`.
 */
interface DragLike {
  dataTransfer: { types: ArrayLike<string> } | null;
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function ignoreStrayDrops(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
  const stray = (e: Event) => {
    const drag = e as unknown as DragLike;
    if (drag.defaultPrevented || !drag.dataTransfer || !Array.from(drag.dataTransfer.types).includes('Files')) return;
    drag.preventDefault();
    if (e.type === 'dragover') (drag.dataTransfer as { dropEffect?: string }).dropEffect = 'none';
  };
  target.addEventListener('dragover', stray);
  target.addEventListener('drop', stray);
  return () => {
    target.removeEventListener('dragover', stray);
    target.removeEventListener('drop', stray);
  };
}
