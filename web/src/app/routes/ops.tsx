export { OpsLayout } from '../../features/ops/ops-layout';
export { FindPersonPage } from '../../features/ops/find-person-page';
export { PersonPage } from '../../features/ops/person-page';
export { LocationPage } from '../../features/ops/location-page';
import { searchForm } from '../../features/ops/find-person-page';

/** Find a person's parts that hydrate on their own (app/router.tsx `pageWithParts`). */
export const findPersonParts = [searchForm];
