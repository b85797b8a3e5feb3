/** The composer's secondary buttons as line icons (SVG: no emoji font needed); their names are on the buttons. */
const ICON_PATHS = {
  attach: 'M11.5 6.5l-5 5a2 2 0 0 1-2.8-2.8l5.6-5.6a3 3 0 0 1 4.2 4.2l-5.8 5.8a4 4 0 0 1-5.6-5.6L7.5 2',
  link: 'M6.5 9.5a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-1 1M9.5 6.5a3 3 0 0 0-4.2 0L3 8.8a3 3 0 0 0 4.2 4.2l1-1',
  image: 'M2 3h12v10H2zM2 11l3.5-3.5 3 3 2-2L14 12M10.5 6.2a.8.8 0 1 0 0-.1',
} as const;

export function ComposerIcon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <svg className="composer-svg" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
