import { useEffect, useState } from 'react';

/** Copies text to the clipboard; says whether it worked for a moment. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** `text` may be a function: made when clicked (a long message's text is not joined on every render). */
export function CopyButton({ text, label, testId, title, className }: { text: string | (() => string); label: string; testId: string; title?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={`tx-btn tx-btn-small${className ? ` ${className}` : ''}`}
      data-testid={testId}
      data-state={state}
      title={title}
      onClick={() => void copyText(typeof text === 'function' ? text() : text).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
