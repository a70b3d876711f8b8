import { betaInternal } from './internal';

export const betaService = () => betaInternal;
