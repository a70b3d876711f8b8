export * from './auth';
export * from './content';
export * from './content-types';
export * from './errors';
export * from './http';
export * from './identifiers';
export * from './jurisdictions';
export * from './site-config';
