// Bad: cycle-first -> cycle-second -> cycle-first.
import { second } from './cycle-second';

export const first = () => second();
