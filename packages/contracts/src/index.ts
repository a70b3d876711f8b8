export * from './content';
export * from './errors';
export * from './http';
export * from './identifiers';
export * from './jurisdictions';
export * from './site-config';
