import { SiteConfigSchema } from '@portal/contracts/site-config';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { siteConfigFor } from './service';

describe('site config: the inactivity timer (docs/requirements/session.md#inactivity-timer-constants)', () => {
  it('hands the browser the server idle limit as its timeout, with the prompt time and the fixed throttles', () => {
    expect(siteConfigFor(loadConfig({})).sessionTimer).toEqual({
      timeoutMs: 1_800_000,
      promptBeforeIdleMs: 900_000,
      throttleMs: 1_000,
      eventsThrottleMs: 200,
    });
    const short = siteConfigFor(loadConfig({ SESSION_IDLE_MS: '20000', SESSION_PROMPT_BEFORE_IDLE_MS: '12000' }));
    expect(short.sessionTimer).toMatchObject({ timeoutMs: 20_000, promptBeforeIdleMs: 12_000 });
    expect(SiteConfigSchema.safeParse(short).success).toBe(true);
  });
});
