import { afterEach, describe, expect, it } from 'vitest';
import { loadScript } from '../third-party-scripts';

describe('loadScript', () => {
  afterEach(() => document.head.querySelectorAll('script[data-third-party]').forEach((s) => s.remove()));

  it('pins the script to the vendor’s published hash when one is configured', () => {
    loadScript(
      'https://cdn.vendor.example/tag/v2/tag.js',
      'analytics',
      'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
    );
    const script = document.head.querySelector<HTMLScriptElement>('script[data-third-party="analytics"]')!;
    expect(script.getAttribute('integrity')).toBe(
      'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
    );
    // Integrity checks on another origin's script need a CORS request.
    expect(script.getAttribute('crossorigin')).toBe('anonymous');
    expect(script.async).toBe(true);
  });

  it('adds no integrity attribute without a hash, and adds each script once', () => {
    loadScript('https://survey.example/s.js', 'survey');
    loadScript('https://survey.example/s.js', 'survey');
    const scripts = document.head.querySelectorAll<HTMLScriptElement>('script[data-third-party="survey"]');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.hasAttribute('integrity')).toBe(false);
    expect(scripts[0]!.hasAttribute('crossorigin')).toBe(false);
  });
});
