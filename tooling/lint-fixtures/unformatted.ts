export const   unformatted = {a:1,
  b : "two"}
