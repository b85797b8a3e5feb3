/** Test helper: SSE text back into `{event, data}` records, as a client would read them. */
export function parseSse(frames: string[] | string): { event?: string; data: unknown }[] {
  const text = Array.isArray(frames) ? frames.join('') : frames;
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const raw = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      const data = raw === '[DONE]' ? raw : (JSON.parse(raw) as unknown);
      return event ? { event, data } : { data };
    });
}
