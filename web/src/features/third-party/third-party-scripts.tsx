import { useEffect } from 'react';
import { siteConfig } from '../../config/site-config';
import { useRegion } from '../../lib/region/region-context';

declare global {
  interface Window {
    dataLayer?: unknown[];
    portalChat?: { supportAddress?: string };
  }
}

/**
 * Adds a script once; a script that fails to load is reported to the console and never breaks the page. With an
 * integrity hash the browser refuses a file that differs from the one the vendor published (which needs CORS mode).
 */
export function loadScript(src: string, name: string, integrity?: string) {
  if (document.querySelector(`script[data-third-party="${name}"]`)) return;
  const script = document.createElement('script');
  script.src = src;
  if (integrity) {
    script.setAttribute('integrity', integrity);
    script.crossOrigin = 'anonymous';
  }
  script.async = true;
  script.dataset.thirdParty = name;
  script.onerror = () => console.warn(`The ${name} script could not be loaded; the page works without it.`);
  document.head.appendChild(script);
}

/** Runs `load` once the page is idle after it became interactive, or at the first interaction, whichever comes first. */
function whenIdleOrInteracted(load: () => void): () => void {
  let done = false;
  const events = ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const;
  const run = () => {
    if (done) return;
    done = true;
    cleanup();
    load();
  };
  // Safari has no requestIdleCallback: fall back to a timer.
  const hasIdle = typeof (window as Partial<Window>).requestIdleCallback === 'function';
  const idle = hasIdle ? window.requestIdleCallback(run, { timeout: 4000 }) : globalThis.setTimeout(run, 2000);
  events.forEach((e) => window.addEventListener(e, run, { once: true, passive: true }));
  function cleanup() {
    if (hasIdle) window.cancelIdleCallback(idle as number);
    else globalThis.clearTimeout(idle);
    events.forEach((e) => window.removeEventListener(e, run));
  }
  return cleanup;
}

/**
 * Third-party scripts (docs/requirements/public-site.md#third-party-scripts), each present only when configured: the analytics tag (sent `user_region`, the
 * current jurisdiction, and again whenever it changes), and the chat widget and survey, both lazy.
 */
export function ThirdPartyScripts() {
  const { jurisdiction } = useRegion();
  const {
    analyticsScriptUrl,
    analyticsScriptIntegrity,
    chatScriptUrl,
    chatScriptIntegrity,
    chatSupportAddress,
    surveyScriptUrl,
    surveyScriptIntegrity,
  } = siteConfig;

  useEffect(() => {
    if (!analyticsScriptUrl) return;
    const dataLayer = (window.dataLayer = window.dataLayer ?? []);
    // Tell the tag only about changes, even if the layout mounts again.
    const last = [...dataLayer]
      .reverse()
      .find((e): e is { user_region: string } => typeof e === 'object' && e !== null && 'user_region' in e);
    if (last?.user_region !== jurisdiction) dataLayer.push({ event: 'user_region', user_region: jurisdiction });
  }, [analyticsScriptUrl, jurisdiction]);

  useEffect(() => {
    if (analyticsScriptUrl) loadScript(analyticsScriptUrl, 'analytics', analyticsScriptIntegrity);
  }, [analyticsScriptUrl, analyticsScriptIntegrity]);

  useEffect(() => {
    if (!chatScriptUrl && !surveyScriptUrl) return;
    return whenIdleOrInteracted(() => {
      if (chatScriptUrl) {
        window.portalChat = { supportAddress: chatSupportAddress };
        loadScript(chatScriptUrl, 'chat', chatScriptIntegrity);
      }
      if (surveyScriptUrl) loadScript(surveyScriptUrl, 'survey', surveyScriptIntegrity);
    });
  }, [chatScriptUrl, chatScriptIntegrity, chatSupportAddress, surveyScriptUrl, surveyScriptIntegrity]);

  return null;
}
