export declare const EMBEDDED_NODE_FLAGS: string[];
export declare function portalNodeFlags(env: Record<string, string | undefined>): string[];
