export const betaInternal = 'internal';
