// Good: a declared dependency, a sibling in lib/, a kebab-case name, no cycle, formatted.
import { z } from 'zod/mini';
import { regionLabel } from './region-label';

export const RegionSchema = z.object({ [regionLabel]: z.string() });
