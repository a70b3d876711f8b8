import { PAGE_PATHS } from '@portal/contracts/paths';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../router';

/** The deepest route a path reaches: `*` is the not-found page. */
function leafPath(path: string): string | undefined {
  const matches = matchRoutes(routes as RouteObject[], path) ?? [];
  return matches.at(-1)?.route.path;
}

describe('paths the server emails link to', () => {
  it('each reaches a page of the route table, not the not-found page', () => {
    for (const path of Object.values(PAGE_PATHS)) {
      const leaf = leafPath(path);
      expect(leaf, path).toBeDefined();
      expect(leaf, path).not.toBe('*');
    }
  });
});
