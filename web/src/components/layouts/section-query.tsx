import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SectionError, SectionSkeleton } from './page-section';

/**
 * What a section shows for the query its data comes from: grey lines while it loads (`SectionSkeleton`, named
 * `loadingLabel`), the error with "Try again" when it fails (`SectionError`, also when a refetch fails), `empty` when
 * the data has nothing to show (`isEmpty`), otherwise `children` with the data.
 */
export function SectionQuery<T>({
  query,
  loadingLabel,
  lines,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  /** How many grey lines stand for the data while it loads. */
  lines?: number;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <SectionSkeleton label={loadingLabel} lines={lines} />;
  if (query.isError) return <SectionError error={query.error} onRetry={() => void query.refetch()} />;
  return <>{isEmpty?.(query.data) ? empty : children(query.data)}</>;
}
