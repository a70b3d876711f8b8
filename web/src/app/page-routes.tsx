import { Component, use, useEffect, useLayoutEffect, useMemo, useRef, type ComponentType, type ReactNode } from 'react';
import { useLocation, useNavigationType, useRoutes, type RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/errors/route-error-fallback';

/**
 * The route table (router.tsx) rendered in React Router's declarative mode (`BrowserRouter` in the browser,
 * `StaticRouter` on the server) instead of its data router: the portal has no loaders, actions or fetchers, and the
 * data router's code was 17 KB gzip of every page's first download (docs/decisions/0060).
 * What the table used of the data router is here: a route's `lazy` module (loaded before hydration by
 * `loadMatchedRoutes`, otherwise when the route is first rendered: the render suspends and React keeps the page
 * shown before, as navigations are transitions), the root's error page, and the scroll position on navigation.
 */

const loading = new WeakMap<RouteObject, Promise<void>>();

/** Loads a route's `lazy` module once and keeps what it gives (its `Component`) on the route. */
export function loadRoute(route: RouteObject): Promise<void> {
  const lazy = route.lazy;
  if (typeof lazy !== 'function') return Promise.resolve();
  let promise = loading.get(route);
  if (!promise) {
    promise = (lazy as () => Promise<Partial<RouteObject>>)().then((loaded) => {
      Object.assign(route, { ...loaded, lazy: undefined });
    });
    loading.set(route, promise);
  }
  return promise;
}

function LazyRoute({ route }: { route: RouteObject }) {
  if (typeof route.lazy === 'function') use(loadRoute(route));
  const Page = route.Component as ComponentType | null | undefined;
  return Page ? <Page /> : null;
}

function withElements(routes: RouteObject[]): RouteObject[] {
  return routes.map(
    (route) =>
      ({
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        element: route.element ?? <LazyRoute route={route} />,
        children: route.children && withElements(route.children),
      }) as RouteObject,
  );
}

/** The page of the first error a render threw, until the address changes ("Something went wrong", never blank). */
class RouteErrorBoundary extends Component<
  { pathname: string; children: ReactNode },
  { error: boolean; pathname: string }
> {
  override state = { error: false, pathname: this.props.pathname };

  static getDerivedStateFromError() {
    return { error: true };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: { error: boolean; pathname: string }) {
    return props.pathname === state.pathname ? null : { error: false, pathname: props.pathname };
  }

  override render() {
    return this.state.error ? <RouteErrorFallback /> : this.props.children;
  }
}

/** Where each history entry was scrolled to (by `location.key`), for back and forward. */
const scrollPositions = new Map<string, number>();

/**
 * The scroll position on navigation, as the data router's `ScrollRestoration` kept it: a new page (a link, a
 * redirect) starts at its top, or at the element its `#hash` names; back and forward return to where the page was.
 * The first page is left to the browser.
 */
function ScrollOnNavigation() {
  const location = useLocation();
  const type = useNavigationType();
  // The history entry the page shows (its scroll position is saved under it); the first one is left as it is.
  const current = useRef(location.key);
  useEffect(() => {
    const save = () => scrollPositions.set(current.current, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, []);
  useLayoutEffect(() => {
    if (current.current === location.key) return;
    current.current = location.key;
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (type === 'POP') window.scrollTo(0, scrollPositions.get(location.key) ?? 0);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, type]);
  return null;
}

/** The app's routes for the current address. */
export function PageRoutes({ routes }: { routes: RouteObject[] }) {
  const table = useMemo(() => withElements(routes), [routes]);
  const { pathname } = useLocation();
  const page = useRoutes(table);
  return (
    <RouteErrorBoundary pathname={pathname}>
      {page}
      <ScrollOnNavigation />
    </RouteErrorBoundary>
  );
}
