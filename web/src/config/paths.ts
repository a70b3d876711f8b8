/** Route table (docs/requirements/public-site.md#routes): components build links from here, never by hand. */
export const paths = {
  home: { path: '/', href: () => '/' },
  topic: { path: '/topics/:id', href: (id: string) => `/topics/${encodeURIComponent(id)}` },
} as const;
