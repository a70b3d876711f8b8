import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// react-router's package exports point every build at its development files (dev warnings on); its production
// files exist beside them (remix-run/react-router#12532). The browser's production build takes those.
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * Puts the entry's stylesheet (the @font-face rules of src/app/fonts.css, 1 KB) into index.html as a <style> element
 * instead of a <link>: a linked stylesheet blocks the first paint, and the browser had queued it behind the scripts
 * (six connections per host over HTTP/1.1), so the first paint waited for them (docs/decisions/0018-server-rendering.md).
 * And takes it out of the stylesheets Vite's loader links before a lazy chunk runs: every lazy chunk depends on the
 * entry, so the first lazy import linked the same faces again, and Chrome matched them anew, drawing Lato text in the
 * fallback for a moment (issue 39). The loader's list is the chunk's first line; only that line changes, so the source
 * maps stay true.
 */
function inlineEntryCss(): Plugin {
  const inlined = new Set<string>();
  return {
    name: 'portal:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
          (link, fileName: string) => {
            const asset = bundle[fileName];
            if (asset?.type !== 'asset') return link;
            inlined.add(fileName);
            return `<style>${String(asset.source)}</style>`;
          },
        );
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || ![...inlined].some((fileName) => chunk.code.includes(`"${fileName}"`)))
            continue;
          const end = chunk.code.indexOf('\n');
          const declaration =
            /^const __vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=(\[[^\]]*\])\)\)\)=>i\.map\(i=>d\[i\]\);$/;
          const files = declaration.exec(chunk.code.slice(0, end))?.[1];
          if (!files) throw new Error(`${chunk.fileName}: Vite's list of a lazy import's stylesheets has a new form`);
          const kept = (JSON.parse(files) as string[]).map((file) => (inlined.has(file) ? null : file));
          chunk.code =
            `const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=${JSON.stringify(kept)})))=>i.map(i=>d[i]).filter(Boolean);` +
            chunk.code.slice(end);
        }
      },
    },
  };
}

/**
 * MUI's touch ripple (TouchRipple, its Ripple and transition group: about 2.5 KB gzip of the entry chunk) is imported
 * by ButtonBase whether or not a ripple ever shows. The portal's theme turns ripples off (src/app/theme.ts: an outline
 * shows keyboard focus instead), so the module is replaced by one that renders nothing: a component that still asks
 * for a ripple gets none (docs/decisions/0034-server-rendered-portal-pages.md).
 */
function muiWithoutTouchRipple(): Plugin {
  return {
    name: 'portal:mui-without-touch-ripple',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0]!.replaceAll('\\', '/');
      if (!path.endsWith('/@mui/material/ButtonBase/TouchRipple.mjs')) return undefined;
      return `export const DELAY_RIPPLE = 80;
export default function TouchRipple() {
  return null;
}`;
    },
  };
}

/**
 * MUI's `createTheme` and `ThemeProvider` carry the machinery of CSS-variables themes (colour schemes, their
 * localStorage manager and inline script, the variables' parser: about 7 KB gzip of the entry chunk) for a theme
 * made with `cssVariables` or `colorSchemes`. The portal's theme (src/app/theme.ts) has neither, so MUI takes its
 * no-variables path at run time; these two modules lead there directly, and throw if a theme ever needs the other
 * path (docs/decisions/0034-server-rendered-portal-pages.md).
 */
function muiThemeWithoutCssVariables(): Plugin {
  const modules: Record<string, string> = {
    '/@mui/material/styles/createTheme.mjs': `import createThemeNoVars from './createThemeNoVars.mjs';
export default function createTheme(options = {}, ...args) {
  if (options.cssVariables || 'colorSchemes' in options)
    throw new Error('CSS-variables themes are left out of the build (web/vite.config.ts)');
  return createThemeNoVars(options, ...args);
}`,
    '/@mui/material/styles/ThemeProvider.mjs': `'use client';
import * as React from 'react';
import ThemeProviderNoVars from './ThemeProviderNoVars.mjs';
import THEME_ID from './identifier.mjs';
import { jsx as _jsx } from 'react/jsx-runtime';
export default function ThemeProvider({ theme, ...props }) {
  const noVarsTheme = React.useMemo(() => {
    if (typeof theme === 'function') return theme;
    const muiTheme = THEME_ID in theme ? theme[THEME_ID] : theme;
    if ('colorSchemes' in muiTheme)
      throw new Error('CSS-variables themes are left out of the build (web/vite.config.ts)');
    return 'vars' in muiTheme ? theme : { ...theme, vars: null };
  }, [theme]);
  return /*#__PURE__*/ _jsx(ThemeProviderNoVars, { theme: noVarsTheme, ...props });
}`,
  };
  return {
    name: 'portal:mui-theme-without-css-variables',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0]!.replaceAll('\\', '/');
      for (const [end, code] of Object.entries(modules)) if (path.endsWith(end)) return code;
      return undefined;
    },
  };
}

export default defineConfig(({ command, isSsrBuild, mode }) => ({
  plugins: [react(), inlineEntryCss(), muiThemeWithoutCssVariables(), muiWithoutTouchRipple()],
  resolve: {
    alias: command === 'build' && !isSsrBuild ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  // The server entry (docs/decisions/0018-server-rendering.md) carries its libraries, built for production like the
  // browser's: the class names MUI and emotion generate (labels in development builds) and React's build must not
  // depend on the server's NODE_ENV (`npm start` runs without one), or the browser would insert every style again.
  ...(isSsrBuild && mode === 'production'
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // bench/web-size reads it to follow what `/` loads.
    manifest: true,
    // Let the size report (bench/web-size) speak; the 500 kB warning is not our budget.
    chunkSizeWarningLimit: 1000,
    // No modulepreload links for lazy chunks: Vite's preload helper appends a <link> per dependency when a lazy
    // route or the markdown renderer is imported (eleven for `/`), and on a server-rendered page those insertions
    // were most of the task before hydration (Lighthouse TBT 150–290 → 20–100 ms,
    // docs/decisions/0018-server-rendering.md). The browser fetches a lazy chunk's own imports once it has the
    // chunk: one round trip more before hydrating.
    modulePreload: false,
    // Everything the entry imports statically goes out as one chunk instead of about twenty: over HTTP/1.1 a phone
    // fetches six at a time, so twenty small scripts took several round trips and the fonts waited behind them
    // (docs/decisions/0018-server-rendering.md). Lazy routes keep their own chunks.
    ...(isSsrBuild
      ? {}
      : {
          rolldownOptions: {
            output: {
              codeSplitting: { groups: [{ name: 'initial', tags: ['$initial' as const] }] },
              // V8's explicit compile hint: the entry's functions nearly all run during the first load, so Chrome
              // compiles them while the file streams in, off the main thread, instead of one by one during the
              // long task that evaluates the modules (docs/decisions/0018-server-rendering.md).
              postBanner: (chunk: { isEntry: boolean }) => (chunk.isEntry ? '//# allFunctionsCalledOnLoad' : ''),
            },
          },
        }),
  },
  server: {
    port: 5173,
    // `npm run dev`: the SPA on Vite, API calls to the portal server.
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
    },
  },
}));
