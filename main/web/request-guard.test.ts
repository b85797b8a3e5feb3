import { describe, expect, it } from 'vitest';
import { allowedHost, allowedOrigin, guardRequest, readCookie } from './request-guard';
import { tokenMatches } from './access-token';

const cfg = { token: 'secret-token', port: 4000, cookieName: 'acp_workbench_4000' };

describe('request guard', () => {
  it('accepts loopback hosts on our port only', () => {
    expect(allowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(allowedHost('localhost:4000', 4000)).toBe(true);
    expect(allowedHost('127.0.0.1:4001', 4000)).toBe(false);
    expect(allowedHost('attacker.example:4000', 4000)).toBe(false);
    expect(allowedHost(undefined, 4000)).toBe(false);
  });

  it('accepts a missing Origin and our own, nothing else', () => {
    expect(allowedOrigin(undefined, 4000)).toBe(true);
    expect(allowedOrigin('http://127.0.0.1:4000', 4000)).toBe(true);
    expect(allowedOrigin('null', 4000)).toBe(false);
    expect(allowedOrigin('http://127.0.0.1:4000.evil.example', 4000)).toBe(false);
  });

  it('reads the cookie among others', () => {
    expect(readCookie('a=1; acp_workbench_4000=secret-token; b=2', 'acp_workbench_4000')).toBe('secret-token');
    expect(readCookie('xacp_workbench_4000=1', 'acp_workbench_4000')).toBeUndefined();
  });

  it('decides by cookie, bearer, then URL token', () => {
    const base = { host: '127.0.0.1:4000' };
    expect(guardRequest({ url: '/', headers: { ...base, cookie: 'acp_workbench_4000=secret-token' } }, cfg)).toMatchObject({ allow: true, via: 'cookie', setCookie: false });
    expect(guardRequest({ url: '/', headers: { ...base, authorization: 'Bearer secret-token' } }, cfg)).toMatchObject({ allow: true, via: 'bearer' });
    expect(guardRequest({ url: '/?token=secret-token', headers: base }, cfg)).toMatchObject({ allow: true, via: 'token', setCookie: true });
    expect(guardRequest({ url: '/', headers: base }, cfg)).toMatchObject({ allow: false, status: 401 });
  });

  it('compares tokens without early exit on length', () => {
    expect(tokenMatches('secret-token', 'secret-token')).toBe(true);
    expect(tokenMatches('secret-toke', 'secret-token')).toBe(false);
    expect(tokenMatches('', 'secret-token')).toBe(false);
    expect(tokenMatches(undefined, 'secret-token')).toBe(false);
  });
});
