export { OpsLayout } from '../../features/ops/ops-layout';
export { FindPersonPage } from '../../features/ops/find-person-page';
export { PersonPage } from '../../features/ops/person-page';
export { LocationPage } from '../../features/ops/location-page';
