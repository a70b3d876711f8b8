// Compile-time checks for a type written twice on purpose: a zod-free module's plain type beside the schema that
// checks the same values (the zod-free one must not import the schema's module, which imports it).

/** `true` when A and B accept the same values and name the same fields (an optional one included). */
export type SameShape<A, B> = [A, keyof A] extends [B, keyof B]
  ? [B, keyof B] extends [A, keyof A]
    ? true
    : false
  : false;

/** Fails the type check unless its argument is `true`: `type _Check = Assert<SameShape<A, B>>`. */
export type Assert<T extends true> = T;
