// Good: db/'s table helpers may use platform's database handle type, nothing else of platform/.
export type Executor = { run(sql: string): void };
