import { createContext, useContext, type ReactNode } from 'react';

/** What rendering needs to know about the visitor and the page's address, in the browser and on the server alike. */
export interface RenderEnvironment {
  userAgent: string;
  /** The page's host name and origin (links to our own host navigate in the app). */
  location: { hostname: string; origin: string };
}

function browserEnvironment(): RenderEnvironment {
  return {
    userAgent: navigator.userAgent,
    location: { hostname: window.location.hostname, origin: window.location.origin },
  };
}

const RenderEnvironmentContext = createContext<RenderEnvironment | null>(null);

/** The portal server passes the request's values; in the browser they come from `navigator` and `location`. */
export function RenderEnvironmentProvider({ value, children }: { value?: RenderEnvironment; children: ReactNode }) {
  return <RenderEnvironmentContext.Provider value={value ?? null}>{children}</RenderEnvironmentContext.Provider>;
}

export function useRenderEnvironment(): RenderEnvironment {
  return useContext(RenderEnvironmentContext) ?? browserEnvironment();
}
