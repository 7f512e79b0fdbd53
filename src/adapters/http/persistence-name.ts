/** Where records live, as GET /health and GET /api/auth/session name it (the boot layer's PersistenceKind). */
export const PERSISTENCE_NAMES = ['mongodb', 'embedded', 'memory'] as const;
export type PersistenceName = (typeof PERSISTENCE_NAMES)[number];
