import { describe, expect, it, vi } from 'vitest';
import { externalUrl, openExternalLink } from './links';

describe('external links', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(externalUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(externalUrl('HTTP://Example.com')).toBe('http://example.com/');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'file:///etc/passwd', '/relative', 'src/a.ts', '//evil.com', 'mailto:a@b.c', '', null, undefined, 'http://', 'https:evil.com'])
      expect(externalUrl(bad as string)).toBeNull();
  });

  it('asks before opening, and opens without an opener', () => {
    const open = vi.fn();
    expect(openExternalLink('https://x.dev', { confirm: () => false, open })).toBe(false);
    expect(open).not.toHaveBeenCalled();
    expect(openExternalLink('https://x.dev', { confirm: () => true, open })).toBe(true);
    expect(open).toHaveBeenCalledWith('https://x.dev/', '_blank', 'noopener');
    const confirm = vi.fn(() => true);
    expect(openExternalLink('javascript:alert(1)', { confirm, open })).toBe(false);
    expect(confirm).not.toHaveBeenCalled();
  });
});
