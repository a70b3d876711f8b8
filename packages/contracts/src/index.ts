export * from './errors';
export * from './http';
export * from './identifiers';
export * from './jurisdictions';
