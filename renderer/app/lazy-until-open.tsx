import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A screen whose code loads the first time it opens (start-up, issue #11: the window's first
 * script holds only what the first view needs). `useOpen` says whether it is open; once it has
 * been, the screen stays mounted as before, so it keeps its own state across closing and reopening.
 */
export function lazyUntilOpen<P extends object>(useOpen: (props: P) => boolean, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Screen = lazy(async () => ({ default: await load() }));
  return function LazyUntilOpen(props: P) {
    const open = useOpen(props);
    const [seen, setSeen] = useState(open);
    if (open && !seen) setSeen(true);
    if (!seen && !open) return null;
    return (
      <Suspense fallback={null}>
        <Screen {...props} />
      </Suspense>
    );
  };
}
