import { describe, expect, it } from 'vitest';
import { describeAgent, keptAddress } from '../../src/domain/index.js';

describe('describeAgent', () => {
  it('names the browser family, Chromium-based ones (headless too) before the Safari they also claim', () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const headless = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';
    const safari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
    expect(describeAgent(chrome)).toEqual({ browser: 'Chrome', os: 'Linux' });
    expect(describeAgent(headless)).toEqual({ browser: 'Chrome', os: 'Linux' });
    expect(describeAgent(safari).browser).toBe('Safari');
    expect(describeAgent('')).toEqual({ browser: null, os: null });
  });
});

describe('keptAddress', () => {
  it('keeps an IPv4 /24 and an IPv6 /48 when truncated, the whole address when full, nothing when none', () => {
    expect(keptAddress('203.0.113.77', 'truncated')).toBe('203.0.113.0/24');
    expect(keptAddress('2001:db8:1:2::5', 'truncated')).toBe('2001:db8:1::/48');
    expect(keptAddress('203.0.113.77', 'full')).toBe('203.0.113.77');
    expect(keptAddress('203.0.113.77', 'none')).toBeNull();
  });
});
