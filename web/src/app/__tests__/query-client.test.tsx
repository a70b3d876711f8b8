import { act, screen, waitFor } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getLicenseQueryOptions } from '../../features/license/api/get-license';
import { ApiError } from '../../lib/api-client';
import { contentRoute } from '../../testing/content-handlers';
import { recordRequests, server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';
import { createQueryClient } from '../query-client';

const done = { [REGION_COOKIE]: 'J5A', [LICENSE_COOKIE]: 'true' };

afterEach(() => {
  vi.restoreAllMocks();
  focusManager.setFocused(undefined);
});

describe('query rules', () => {
  it('retries network and 5xx failures three more times, never a 4xx', () => {
    const retry = createQueryClient().getDefaultOptions().queries?.retry as (
      failureCount: number,
      error: unknown,
    ) => boolean;
    expect([0, 1, 2, 3].map((n) => retry(n, new ApiError(502, 'Content_Unavailable')))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(retry(0, new ApiError(0, 'Service_Unavailable'))).toBe(true);
    expect(retry(0, new ApiError(404, 'Not_Found'))).toBe(false);
    expect(retry(0, new ApiError(400, 'Validation_Failed'))).toBe(false);
  });

  it('a page whose server cannot be reached is asked four times in all', async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('topics'), () => Response.error()));
    renderApp({ path: '/topics/appeals', cookies: done });
    await screen.findByRole('alert');
    expect(requests.filter((url) => url.pathname.endsWith('/topics'))).toHaveLength(4);
  });

  it('does not fetch again when the window gets the focus back, even long after', async () => {
    const requests = recordRequests();
    const { queryClient } = renderApp({ path: '/topics/appeals', cookies: done });
    await screen.findByRole('heading', { level: 1, name: 'Title of appeals' });
    const later = Date.now() + 60 * 60_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    // The client hands the focus to its cache after resuming paused mutations (a promise): wait for that hand-over.
    const cacheFocused = vi.spyOn(queryClient.getQueryCache(), 'onFocus');
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(cacheFocused).toHaveBeenCalled());
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(requests.filter((url) => url.pathname.endsWith('/topics'))).toHaveLength(1);
  });

  it('keeps the license fresh for 180000 ms', async () => {
    const { queryClient } = renderApp({ path: '/topics/appeals', cookies: { [REGION_COOKIE]: 'J5A' } });
    await screen.findByText(/CPT is a registered trademark/);
    const query = queryClient.getQueryCache().find({ queryKey: getLicenseQueryOptions().queryKey });
    if (!query) throw new Error('the license dialog did not use the license query');
    // The stale time of the mounted dialog's observer: what really decides whether the license is asked again.
    const staleTime = query.observers[0]?.options.staleTime;
    if (typeof staleTime !== 'number') throw new Error('the license dialog set no numeric stale time');
    const fetchedAt = query.state.dataUpdatedAt;
    const staleAt = (ms: number) => {
      vi.spyOn(Date, 'now').mockReturnValue(fetchedAt + ms);
      return query.isStaleByTime(staleTime);
    };
    expect(staleAt(179_999)).toBe(false);
    expect(staleAt(180_001)).toBe(true);
  });
});
