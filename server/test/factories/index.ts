/**
 * The test-data factories: every server test makes its people, locations, links and
 * access requests here, reads the queued mail here and takes its client addresses here. A factory writes to a test
 * app, a bare `{ database }` or a database/transaction (`FactoryTarget`); names and identifiers are unique per call.
 */
export * from './clients';
export * from './links';
export * from './locations';
export * from './mail';
export * from './people';
export * from './requests';
export { type FactoryTarget } from './target';
